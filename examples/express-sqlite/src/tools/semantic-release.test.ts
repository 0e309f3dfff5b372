/**
 * Issue 19, "real tools are the acceptance test": semantic-release 25 with @semantic-release/gitlab
 * (pinned in test-tools/semantic-release, run on Node 24 from test-tools/node24) makes a real
 * release (`--no-ci`, not a dry run) against the quick-start server, once on a personal project and
 * once on a group project. Each project gets conventional commits pushed by git (`feat: …` on main,
 * `fix: …` on a branch), a merge request whose description closes an issue, merged through the API,
 * and then one semantic-release run configured with commit-analyzer, release-notes-generator and
 * @semantic-release/gitlab (gitlabUrl, an asset file to upload, successComment).
 *
 * The tool reaches the server through a recording proxy on 127.0.0.1, so each check can name the
 * calls that failed (method, path, status, body). @semantic-release/gitlab 13.3.3 makes these calls
 * (lib/verify.js, publish.js, success.js):
 *   verify:  GET  /api/v4/projects/:path                          (permissions.project_access / group_access ≥ 30)
 *   publish: POST /api/v4/projects/:path/uploads                  (multipart `file`; answers alt, full_path)
 *            POST /api/v4/projects/:path/releases                 (tag_name, description, assets.links[{name, url}])
 *   success: GET  /api/v4/projects/:path/repository/commits/:sha/merge_requests   (per released commit; keeps state merged)
 *            GET  /api/v4/projects/:id/merge_requests/:iid/closes_issues          (per merged MR; keeps state closed)
 *            POST /api/v4/projects/:id/issues/:iid/notes, POST …/merge_requests/:iid/notes (the success comments)
 * and semantic-release itself uses git over HTTP: ls-remote, push --dry-run, fetch --tags, push
 * of the tag and of its refs/notes/semantic-release-<tag> note.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, type RunningMain } from "../run-main.js";
import { forgeApi, type ForgeApi } from "./forge-api.js";
import { installTool, node24, run } from "./install-tool.js";
import { failedCalls, recordingProxy, type RecordedCall, type RecordingProxy } from "./recording-proxy.js";

const execFileAsync = promisify(execFile);
/** Where each run's output is written. */
const LOGS = join(import.meta.dirname, "..", "..", "..", "..", "test-results", "semantic-release");

interface Note { body: string; system: boolean }
interface Release { tag_name: string; description: string; assets: { links: { name: string; url: string }[] } }

/** Setup shared by both projects: the server, alice's client, the tool paths and the measurements. */
const shared = { dir: "", server: undefined as RunningMain | undefined, alice: undefined as unknown as ForgeApi, node: "", cli: "", timings: [] as string[] };

beforeAll(async () => {
  shared.dir = mkdtempSync(join(tmpdir(), "forgekit-semantic-release-"));
  const started = Date.now();
  shared.node = await node24();
  const tool = await installTool("semantic-release");
  shared.cli = join(tool.dir, "node_modules", "semantic-release", "bin", "semantic-release.js");
  shared.timings.push(`install: ${tool.cached ? "cached" : `${Date.now() - started} ms`}`);
  shared.server = await runMain(join(shared.dir, "data"));
  shared.alice = forgeApi(shared.server.baseUrl, shared.server.token("alice"));
}, 1_500_000);

afterAll(async () => {
  console.log(`semantic-release.test timings: ${shared.timings.join(", ")}`);
  await shared.server?.stopCleanly();
  rmSync(shared.dir, { recursive: true, force: true });
});

/** One release scenario on a new public project created by alice in `namespace` (her own when undefined). */
function releaseScenario(kind: string, path: string, namespace: (alice: ForgeApi) => Promise<number | undefined>) {
  describe(`semantic-release on a ${kind} project`, () => {
    let proxy: RecordingProxy;
    let project: { id: number; path_with_namespace: string };
    let issueIid = 0;
    let mrIid = 0;
    let head = "";
    let result = { code: -1, output: "" };
    let calls: RecordedCall[] = [];
    const asset = `greeter build of ${kind} ${Date.now()}\n`;
    const api = () => shared.alice;
    /** The failed calls since `from`, for a check's message. */
    const failed = (from = 0) => failedCalls(calls.slice(from));
    /**
     * For a success-comment check's message: the failed calls, and the two reads success.js makes
     * (the merged head's merge requests, the merge request's closed issues) made again by the test,
     * since a run that stopped earlier never reached them.
     */
    const successCalls = async () => {
      const reads = [`/projects/${encodeURIComponent(project.path_with_namespace)}/repository/commits/${head}/merge_requests`, `/projects/${project.id}/merge_requests/${mrIid}/closes_issues`];
      const answers = await Promise.all(reads.map(async (path) => ({ path, ...(await api().raw("GET", path)) })));
      return JSON.stringify({ failed: failed(), reads: answers.map((a) => `GET ${a.path} → ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`) });
    };

    beforeAll(async () => {
      const server = shared.server;
      if (server === undefined) throw new Error("the server did not start");
      const token = server.token("alice");
      proxy = await recordingProxy(server.baseUrl.replace("localhost", "127.0.0.1"));
      const namespaceId = await namespace(api());
      project = await api().call("POST", "/projects", { name: path, path, visibility: "public", ...(namespaceId === undefined ? {} : { namespace_id: namespaceId }) });
      const repositoryUrl = new URL(`${proxy.baseUrl}/${project.path_with_namespace}.git`);
      repositoryUrl.username = "alice";
      repositoryUrl.password = token;

      // A clone with conventional commits: feat on main, fix on a branch merged by a merge request that closes an issue.
      const work = join(shared.dir, path);
      mkdirSync(work);
      const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: work, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", GIT_AUTHOR_NAME: "Alice Example", GIT_AUTHOR_EMAIL: "alice@example.com", GIT_COMMITTER_NAME: "Alice Example", GIT_COMMITTER_EMAIL: "alice@example.com" };
      const git = async (...args: string[]) => (await execFileAsync("git", args, { cwd: work, env })).stdout.trim();
      issueIid = (await api().call<{ iid: number }>("POST", `/projects/${project.id}/issues`, { title: "Greeting an empty name crashes" })).iid;
      await git("init", "-q", "-b", "main");
      await git("remote", "add", "origin", repositoryUrl.toString());
      writeFileSync(join(work, "greet.js"), "export const greet = (name) => `Hello, ${name.trim()}!`;\n");
      await git("add", "greet.js");
      await git("commit", "-q", "-m", "feat: greet by name");
      await git("push", "-q", "origin", "main");
      await git("checkout", "-q", "-b", "fix-empty-name");
      writeFileSync(join(work, "greet.js"), "export const greet = (name) => `Hello, ${name?.trim() || \"world\"}!`;\n");
      await git("commit", "-q", "-am", `fix: greet an empty name as world\n\nCloses #${issueIid}`);
      await git("push", "-q", "origin", "fix-empty-name");
      mrIid = (await api().call<{ iid: number }>("POST", `/projects/${project.id}/merge_requests`, { source_branch: "fix-empty-name", target_branch: "main", title: "fix: greet an empty name as world", description: `Closes #${issueIid}` })).iid;
      await api().call("PUT", `/projects/${project.id}/merge_requests/${mrIid}/merge`, {});
      await git("checkout", "-q", "main");
      await git("pull", "-q", "--ff-only", "origin", "main");
      head = await git("rev-parse", "HEAD");
      // The release configuration and the file to upload stay out of the commits.
      writeFileSync(join(work, ".gitignore"), ".releaserc.json\n.gitignore\ndist/\n");
      mkdirSync(join(work, "dist"));
      writeFileSync(join(work, "dist", "greeter.txt"), asset);
      const config = {
        plugins: [
          "@semantic-release/commit-analyzer",
          "@semantic-release/release-notes-generator",
          ["@semantic-release/gitlab", { gitlabUrl: proxy.baseUrl, assets: [{ path: "dist/greeter.txt", label: "Greeter build" }], successComment: "This ${issue ? 'issue' : 'merge request'} is released in ${nextRelease.version}" }],
        ],
      };
      writeFileSync(join(work, ".releaserc.json"), JSON.stringify(config));

      const from = proxy.calls.length;
      const started = Date.now();
      const release = await run(shared.node, [shared.cli, "--no-ci", "--branches", "main", "--repository-url", repositoryUrl.toString()], {
        cwd: work,
        timeoutMs: 600_000,
        // Only what the tool needs: no CI variables of the machine running the test leak in.
        env: { ...env, GITLAB_TOKEN: token, GITLAB_URL: proxy.baseUrl, NO_COLOR: "1" },
      });
      shared.timings.push(`${kind} run: ${Date.now() - started} ms`);
      result = { code: release.code, output: release.stdout + release.stderr };
      calls = proxy.calls.slice(from);
      const callList = calls.map((c) => `  ${c.method} ${c.path} → ${c.status}`).join("\n");
      // Kept for reading after a failure (test-results/ is gitignored; CI keeps it), with the calls the tool made.
      mkdirSync(LOGS, { recursive: true });
      writeFileSync(join(LOGS, `${kind}.log`), `${result.output}\n\ncalls:\n${callList}\n`);
      console.log(`semantic-release (${kind}) made ${calls.length} calls:\n${callList}`);
    }, 900_000);

    afterAll(async () => {
      await proxy.close();
    });

    it("semantic-release exits 0 having published 1.0.0, and no call it made failed", () => {
      // semantic-release's ✘ lines name the step that failed and why (EGLNOPUSHPERMISSION, a got HTTPError, …).
      const errors = result.output.split("\n").filter((line) => line.includes("✘"));
      expect({ code: result.code, published: /Published release 1\.0\.0/.test(result.output), failed: failed(), errors }).toEqual({ code: 0, published: true, failed: [], errors: [] });
    });

    it("verify: the project alice's token reads gives her push rights (permissions.project_access or group_access ≥ 30)", async () => {
      const read = await api().call<{ permissions: { project_access: { access_level: number } | null; group_access: { access_level: number } | null } }>("GET", `/projects/${encodeURIComponent(project.path_with_namespace)}`);
      const level = Math.max(read.permissions.project_access?.access_level ?? 0, read.permissions.group_access?.access_level ?? 0);
      expect(level, `GET /projects/${encodeURIComponent(project.path_with_namespace)} → permissions ${JSON.stringify(read.permissions)}`).toBeGreaterThanOrEqual(30);
    });

    it("the tag v1.0.0 exists at the merged head", async () => {
      const tag = await api().raw("GET", `/projects/${project.id}/repository/tags/v1.0.0`);
      expect({ status: tag.status, commit: (tag.body as { commit?: { id: string } }).commit?.id }, JSON.stringify({ tag: tag.body, failed: failed() })).toEqual({ status: 200, commit: head });
    });

    it("the release v1.0.0 exists with its notes (features and bug fixes)", async () => {
      const release = await api().raw("GET", `/projects/${project.id}/releases/v1.0.0`);
      expect(release.status, JSON.stringify({ release: release.body, failed: failed() })).toBe(200);
      const description = (release.body as Release).description;
      expect(description).toMatch(/### Features[\s\S]*greet by name/);
      expect(description).toMatch(/### Bug Fixes[\s\S]*greet an empty name as world/);
    });

    it("the release has an asset link to the uploaded file, which answers 200 with the file's bytes", async () => {
      const release = await api().raw("GET", `/projects/${project.id}/releases/v1.0.0`);
      const links = release.status === 200 ? (release.body as Release).assets.links : [];
      expect(links.map((link) => link.name), JSON.stringify({ release: release.body, failed: failed() })).toEqual(["Greeter build"]);
      const download = await fetch(links[0]?.url ?? "");
      expect({ url: links[0]?.url, status: download.status, body: await download.text() }).toEqual({ url: expect.stringMatching(/\/greeter\.txt$/), status: 200, body: asset });
    });

    it("the success comment is on the released merge request", async () => {
      const notes = await api().call<Note[]>("GET", `/projects/${project.id}/merge_requests/${mrIid}/notes?per_page=100`);
      expect(notes.filter((n) => !n.system).map((n) => n.body), await successCalls()).toEqual(["This merge request is released in 1.0.0"]);
    });

    it("the success comment is on the issue the merge request closed", async () => {
      const issue = await api().call<{ state: string }>("GET", `/projects/${project.id}/issues/${issueIid}`);
      const notes = await api().call<Note[]>("GET", `/projects/${project.id}/issues/${issueIid}/notes?per_page=100`);
      expect({ state: issue.state, comments: notes.filter((n) => !n.system).map((n) => n.body) }, await successCalls()).toEqual({ state: "closed", comments: ["This issue is released in 1.0.0"] });
    });
  });
}

releaseScenario("personal", "greeter", async () => undefined);
releaseScenario("group", "group-greeter", async (alice) => (await alice.call<{ id: number }>("GET", "/groups/demo")).id);
