/**
 * Issue 19, "real tools are the acceptance test": the python-gitlab command line (`python3 -m
 * gitlab`, from Debian's python3-gitlab, which .ci/run installs) against the quick-start server:
 * labels, releases, protected branches, merge-request discussions, commit statuses and approvals.
 * Each command must exit 0 and answer what it did; a failing one shows python-gitlab's error, which
 * names the status and body of the call that failed. Skipped, with a line saying so, where no
 * Python with the `gitlab` module is installed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain, type RunningMain } from "../run-main.js";
import { forgeApi, pushFiles, type ForgeApi } from "./forge-api.js";
import { run } from "./install-tool.js";

const python = ["/usr/bin/python3", "python3"].find((candidate) => spawnSync(candidate, ["-c", "import gitlab"]).status === 0);
if (python === undefined) console.log("examples/express-sqlite: no python3 with the gitlab module (python3-gitlab) — the python-gitlab CLI tests are skipped");

describe.skipIf(python === undefined)("the python-gitlab CLI against the quick-start server", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-python-gitlab-cli-"));
  let server: RunningMain | undefined;
  let alice: ForgeApi;
  let project: { id: number; http_url_to_repo: string };
  let head = "";
  let mrIid = 0;

  /** `python3 -m gitlab -o json <args>` as `user`; resolves with the parsed output, or throws with the command and python-gitlab's error. */
  const cli = async (user: string, ...args: string[]): Promise<unknown> => {
    const done = await run(python ?? "python3", ["-m", "gitlab", "--server-url", server?.baseUrl ?? "", "--private-token", server?.token(user) ?? "", "-o", "json", ...args], { cwd: dir, timeoutMs: 120_000, env: { ...process.env, HOME: dir } });
    if (done.code !== 0) throw new Error(`gitlab ${args.join(" ")} exited ${done.code}: ${(done.stderr + done.stdout).trim().slice(-1500)}`);
    return done.stdout.trim() === "" ? null : JSON.parse(done.stdout);
  };

  beforeAll(async () => {
    server = await runMain(join(dir, "data"));
    alice = forgeApi(server.baseUrl, server.token("alice"));
    const admin = forgeApi(server.baseUrl, server.token("admin"));
    project = await alice.call("POST", "/projects", { name: "cli", path: "cli" });
    const bob = (await admin.call<{ id: number }[]>("GET", "/users?username=bob"))[0];
    await alice.call("POST", `/projects/${project.id}/members`, { user_id: bob?.id, access_level: 30 });
    await pushFiles(project.http_url_to_repo, server.token("alice"), "main", { "README.md": "# cli\n" });
    head = await pushFiles(project.http_url_to_repo, server.token("alice"), "feature", { "README.md": "# cli\n", "feature.txt": "new\n" }, "Add a feature");
    mrIid = (await alice.call<{ iid: number }>("POST", `/projects/${project.id}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "Add a feature" })).iid;
  });
  afterAll(async () => {
    await server?.stopCleanly();
    rmSync(dir, { recursive: true, force: true });
  });

  it("project-label create and list: the label is there with its colour", async () => {
    expect(await cli("alice", "project-label", "create", "--project-id", String(project.id), "--name", "bug", "--color", "#d9534f", "--description", "Something is broken")).toMatchObject({ name: "bug", color: "#d9534f" });
    expect(await cli("alice", "project-label", "list", "--project-id", String(project.id))).toEqual(expect.arrayContaining([expect.objectContaining({ name: "bug", description: "Something is broken" })]));
  });

  it("project-release create, get and list: the release and its tag", async () => {
    expect(await cli("alice", "project-release", "create", "--project-id", String(project.id), "--tag-name", "v1.0.0", "--name", "Version 1.0.0", "--ref", "main", "--description", "The first release")).toMatchObject({ tag_name: "v1.0.0", name: "Version 1.0.0", description: "The first release" });
    expect(await cli("alice", "project-release", "get", "--project-id", String(project.id), "--tag-name", "v1.0.0")).toMatchObject({ tag_name: "v1.0.0" });
    expect(await cli("alice", "project-release", "list", "--project-id", String(project.id))).toEqual([expect.objectContaining({ tag_name: "v1.0.0" })]);
    expect(await alice.call("GET", `/projects/${project.id}/repository/tags/v1.0.0`)).toMatchObject({ name: "v1.0.0" });
  });

  it("project-protected-branch create, list and delete: a wildcard is protected with the access levels given beside the default branch's protection, then not", async () => {
    expect(await cli("alice", "project-protected-branch", "create", "--project-id", String(project.id), "--name", "release/*", "--push-access-level", "40", "--merge-access-level", "30")).toMatchObject({ name: "release/*" });
    const listed = (await cli("alice", "project-protected-branch", "list", "--project-id", String(project.id))) as { name: string; push_access_levels: { access_level: number }[]; merge_access_levels: { access_level: number }[] }[];
    // The default branch was protected when it was made (default_branch_protection 2: Maintainers push and merge).
    const levels = (rows: typeof listed) => rows.map((b) => [b.name, b.push_access_levels.map((l) => l.access_level), b.merge_access_levels.map((l) => l.access_level)]);
    expect(levels(listed)).toEqual([
      ["main", [40], [40]],
      ["release/*", [40], [30]],
    ]);
    await cli("alice", "project-protected-branch", "delete", "--project-id", String(project.id), "--name", "release/*");
    expect(levels((await cli("alice", "project-protected-branch", "list", "--project-id", String(project.id))) as typeof listed)).toEqual([["main", [40], [40]]]);
  });

  it("project-merge-request-discussion create and list: a discussion on the merge request", async () => {
    const created = (await cli("bob", "project-merge-request-discussion", "create", "--project-id", String(project.id), "--mr-iid", String(mrIid), "--body", "Please add a test.")) as { id: string; notes: { body: string }[] };
    expect(created.notes.map((n) => n.body)).toEqual(["Please add a test."]);
    const listed = (await cli("alice", "project-merge-request-discussion", "list", "--project-id", String(project.id), "--mr-iid", String(mrIid))) as { id: string }[];
    expect(listed.map((d) => d.id)).toContain(created.id);
  });

  it("project-commit-status list: the status on the merge request's head", async () => {
    // python-gitlab 3.12's `project-commit-status create` sends the literal path
    // /projects/{project_id}/statuses/{commit_id} (a client bug: its CLI passes --commit-id as a
    // parent attribute the create path never fills in), so the status is posted through the API.
    await alice.call("POST", `/projects/${project.id}/statuses/${head}`, { state: "success", name: "ci/test", ref: "feature" });
    expect(await cli("alice", "project-commit-status", "list", "--project-id", String(project.id), "--commit-id", head)).toEqual([expect.objectContaining({ status: "success", name: "ci/test", sha: head })]);
  });

  it("project-merge-request approve and project-merge-request-approval get: bob's approval is counted", async () => {
    await cli("bob", "project-merge-request", "approve", "--project-id", String(project.id), "--iid", String(mrIid));
    const approval = (await cli("alice", "project-merge-request-approval", "get", "--project-id", String(project.id), "--mr-iid", String(mrIid))) as { approved_by: { user: { username: string } }[] };
    expect(approval.approved_by.map((a) => a.user.username)).toEqual(["bob"]);
  });
});
