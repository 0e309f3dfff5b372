/**
 * Issue 19, "real tools are the acceptance test": Renovate (npm `renovate`, pinned in
 * test-tools/renovate, run on Node 24 from test-tools/node24) does its whole job against the
 * quick-start server (main.ts, as `pnpm start` runs it) through `--platform=gitlab`: a bot user with
 * a token, alice's project pinning outdated npm dependencies, and Renovate runs one after another.
 * Each step checks, through the API, what Renovate did. The package lookups use the npm registry
 * npm is configured with; where it cannot be reached, the steps that need lookups say so and skip,
 * and the forge side (onboarding) is still checked. A failing step names the API calls that failed
 * in Renovate's log (method, URL, status).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, type RunningMain } from "../run-main.js";
import { createUser, forgeApi, pushFiles, type ForgeApi } from "./forge-api.js";
import { installTool, node24, registryReachable, run } from "./install-tool.js";

/** Where each run's debug log is written. */
const LOGS = join(import.meta.dirname, "..", "..", "..", "..", "test-results", "renovate");

interface Mr { iid: number; title: string; state: string; source_branch: string; labels: string[]; assignees: { username: string }[]; reviewers: { username: string }[]; sha: string; updated_at: string }
interface Issue { iid: number; title: string; state: string; description: string; updated_at: string }

/** `METHOD url → status` of each request Renovate's debug log shows failing with a 4xx/5xx (404s of optional files left out). */
function failedCalls(log: string): string[] {
  const calls = [
    ...[...log.matchAll(/(GET|POST|PUT|DELETE|PATCH|HEAD) (http\S+) = \([^)]*statusCode=(\d+)/g)].map((m) => `${m[1]} ${m[2]} → ${m[3]}`),
    ...[...log.matchAll(/failed with status code (\d+)[^:]*: (GET|POST|PUT|DELETE|PATCH|HEAD) (http[^"\s]+)/g)].map((m) => `${m[2]} ${m[3]} → ${m[1]}`),
  ];
  return [...new Set(calls.filter((c) => !/repository\/files\/.*→ 404$/.test(c)))];
}

describe("Renovate against the quick-start server", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-renovate-"));
  let server: RunningMain | undefined;
  let admin: ForgeApi;
  let alice: ForgeApi;
  let bot: { id: number; username: string; token: string };
  let project: { id: number; http_url_to_repo: string };
  let renovate: { node: string; cli: string };
  let registry: { ok: boolean; registry: string; detail: string };
  const timings: string[] = [];
  let runs = 0;

  /** Runs Renovate once on alice/deps; resolves with its exit code and log, and the API calls that failed. */
  const renovateRun = async (): Promise<{ code: number; result: string; failed: string[] }> => {
    runs += 1;
    const config = {
      gitAuthor: "Renovate Bot <renovate-bot@example.com>",
      onboarding: true,
      requireConfig: "required",
      dependencyDashboard: true,
      prHourlyLimit: 0,
      prConcurrentLimit: 0,
      branchConcurrentLimit: 0,
      npmrc: `registry=${registry.registry}\n`,
      onboardingConfig: {
        labels: ["dependencies"],
        assignees: ["alice"],
        reviewers: ["bob"],
        packageRules: [{ matchPackageNames: ["kind-of"], automerge: true, automergeType: "branch" }],
      },
    };
    const started = Date.now();
    const result = await run(renovate.node, [renovate.cli, "--platform=gitlab", `--endpoint=${server?.baseUrl.replace("localhost", "127.0.0.1")}/api/v4`, `--token=${bot.token}`, "alice/deps"], {
      cwd: dir,
      timeoutMs: 600_000,
      // The machine's environment (its proxy and CA settings, e.g. NODE_EXTRA_CA_CERTS, reach the registry lookups).
      env: { ...process.env, HOME: dir, LOG_LEVEL: "debug", RENOVATE_BASE_DIR: join(dir, "renovate"), RENOVATE_CONFIG: JSON.stringify(config), GIT_CONFIG_NOSYSTEM: "1", NO_COLOR: "1" },
    });
    timings.push(`run ${runs}: ${Date.now() - started} ms`);
    const log = result.stdout + result.stderr;
    // Kept for reading after a failure: test-results/ is gitignored (and CI keeps it).
    mkdirSync(LOGS, { recursive: true });
    writeFileSync(join(LOGS, `renovate-run-${runs}.log`), log);
    // "Repository finished" names the outcome: onboarding, done, or why Renovate gave up (disabled, empty, …).
    const outcome = /Repository finished[\s\S]*?"result": "([^"]+)"/.exec(log)?.[1] ?? "no result in the log";
    return { code: result.code, result: outcome, failed: failedCalls(log) };
  };
  const mrs = () => alice.call<Mr[]>("GET", `/projects/${project.id}/merge_requests?state=all&per_page=100`);
  const issues = () => alice.call<Issue[]>("GET", `/projects/${project.id}/issues?state=all&per_page=100`);
  const branches = async () => (await alice.call<{ name: string; commit: { id: string } }[]>("GET", `/projects/${project.id}/repository/branches?per_page=100`)).map((b) => `${b.name}@${b.commit.id}`).sort();
  const mainPackageJson = async () => alice.call<{ dependencies: Record<string, string> }>("GET", `/projects/${project.id}/repository/files/package.json/raw?ref=main`);

  beforeAll(async () => {
    const started = Date.now();
    const node = await node24();
    const tool = await installTool("renovate");
    renovate = { node, cli: join(tool.dir, "node_modules", "renovate", "dist", "renovate.js") };
    timings.push(`install: ${tool.cached ? "cached" : `${Date.now() - started} ms`}`);
    registry = await registryReachable("is-number");
    if (!registry.ok) console.log(`renovate.test: the npm registry ${registry.registry} cannot be reached (${registry.detail}) — the package-update steps are skipped; onboarding is still checked`);
    server = await runMain(join(dir, "data"));
    admin = forgeApi(server.baseUrl, server.token("admin"));
    alice = forgeApi(server.baseUrl, server.token("alice"));
    bot = await createUser(admin, "renovate-bot");
    project = await alice.call("POST", "/projects", { name: "deps", path: "deps" });
    await alice.call("POST", `/projects/${project.id}/members`, { user_id: bot.id, access_level: 40 });
    const bob = (await admin.call<{ id: number }[]>("GET", "/users?username=bob"))[0];
    await alice.call("POST", `/projects/${project.id}/members`, { user_id: bob?.id, access_level: 30 });
    const packageJson = { name: "deps", version: "1.0.0", private: true, dependencies: { "is-number": "6.0.0", "kind-of": "5.0.0" } };
    await pushFiles(project.http_url_to_repo, server.token("alice"), "main", { "package.json": `${JSON.stringify(packageJson, null, 2)}\n` });
  }, 1_500_000);

  afterAll(async () => {
    console.log(`renovate.test timings: ${timings.join(", ")}`);
    await server?.stopCleanly();
    rmSync(dir, { recursive: true, force: true });
  });

  it("opens the onboarding merge request on an unconfigured repository", async () => {
    const first = await renovateRun();
    expect({ code: first.code, result: first.result, failed: first.failed }).toEqual({ code: 0, result: "onboarding", failed: [] });
    const onboarding = (await mrs()).filter((mr) => mr.source_branch === "renovate/configure");
    expect(onboarding.map((mr) => [mr.title, mr.state])).toEqual([["Configure Renovate", "opened"]]);
    const config = await alice.call("GET", `/projects/${project.id}/repository/files/renovate.json/raw?ref=renovate/configure`);
    expect(config).toMatchObject({ labels: ["dependencies"], assignees: ["alice"], reviewers: ["bob"] });
  }, 900_000);

  it("after the onboarding config is merged, opens an update merge request with its labels, assignees and reviewers, and the Dependency Dashboard issue", async (ctx) => {
    const onboarding = (await mrs()).find((mr) => mr.source_branch === "renovate/configure");
    expect(onboarding?.state).toBe("opened");
    expect((await alice.call<Mr>("PUT", `/projects/${project.id}/merge_requests/${onboarding?.iid}/merge`, { should_remove_source_branch: true })).state).toBe("merged");
    if (!registry.ok) ctx.skip(`no npm registry (${registry.registry}): Renovate cannot look up is-number`);

    const second = await renovateRun();
    expect({ code: second.code, result: second.result, failed: second.failed }).toEqual({ code: 0, result: "done", failed: [] });
    const update = (await mrs()).filter((mr) => mr.source_branch.startsWith("renovate/is-number"));
    expect(update.map((mr) => ({ title: mr.title, state: mr.state, labels: mr.labels, assignees: mr.assignees.map((u) => u.username), reviewers: mr.reviewers.map((u) => u.username) }))).toEqual([
      { title: "Update dependency is-number to v7", state: "opened", labels: ["dependencies"], assignees: ["alice"], reviewers: ["bob"] },
    ]);
    const diff = await alice.call<{ diff: string }[]>("GET", `/projects/${project.id}/merge_requests/${update[0]?.iid}/diffs`);
    expect(diff.map((d) => d.diff).join("")).toMatch(/-\s+"is-number": "6\.0\.0"[\s\S]*\+\s+"is-number": "7\.\d+\.\d+"/);
    // kind-of automerges as a branch: pushed, no merge request while its checks are pending.
    expect(await branches()).toEqual(expect.arrayContaining([expect.stringMatching(/^renovate\/kind-of-6\.x@/)]));
    expect((await mrs()).filter((mr) => mr.source_branch.startsWith("renovate/kind-of"))).toEqual([]);
    const dashboard = (await issues()).filter((i) => i.title === "Dependency Dashboard");
    expect(dashboard.map((i) => i.state)).toEqual(["opened"]);
    expect(dashboard[0]?.description).toContain("is-number");
  }, 900_000);

  it("automerges the branch once a commit status reports success, and updates the Dependency Dashboard", async (ctx) => {
    if (!registry.ok) ctx.skip(`no npm registry (${registry.registry})`);
    const head = (await branches()).find((b) => b.startsWith("renovate/kind-of-6.x@"))?.split("@")[1];
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    const before = (await issues()).find((i) => i.title === "Dependency Dashboard");
    await alice.call("POST", `/projects/${project.id}/statuses/${head}`, { state: "success", name: "ci/test", ref: "renovate/kind-of-6.x" });

    const third = await renovateRun();
    expect({ code: third.code, result: third.result, failed: third.failed }).toEqual({ code: 0, result: "done", failed: [] });
    expect((await mainPackageJson()).dependencies["kind-of"]).toMatch(/^6\.\d+\.\d+$/);
    expect((await branches()).filter((b) => b.startsWith("renovate/kind-of"))).toEqual([]);
    const after = (await issues()).find((i) => i.title === "Dependency Dashboard");
    expect(after?.iid).toBe(before?.iid);
    expect(after?.description).not.toBe(before?.description);
  }, 900_000);

  it("a second run writes nothing new", async (ctx) => {
    if (!registry.ok) ctx.skip(`no npm registry (${registry.registry})`);
    const snapshot = async () => ({ mrs: (await mrs()).map((mr) => [mr.iid, mr.state, mr.sha, mr.updated_at]), issues: (await issues()).map((i) => [i.iid, i.state, i.updated_at]), branches: await branches() });
    const before = await snapshot();
    // What the earlier steps left: the merged onboarding, the open update, the dashboard.
    expect(before.mrs.map(([, state]) => state).sort()).toEqual(["merged", "opened"]);
    expect(before.issues.map(([, state]) => state)).toEqual(["opened"]);
    const again = await renovateRun();
    expect({ code: again.code, result: again.result, failed: again.failed }).toEqual({ code: 0, result: "done", failed: [] });
    expect(await snapshot()).toEqual(before);
  }, 900_000);
});
