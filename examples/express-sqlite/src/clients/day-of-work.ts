/**
 * A developer's day of work against the quick-start server, driven by @gitbeaker/rest (the
 * TypeScript twin of day-of-work.py). The administrator creates the day's developer and their
 * personal access token; the developer then creates a group and a project in it, adds the demo user
 * bob as a member, pushes commits with the git CLI, opens, comments on and closes an issue, creates a
 * branch and a merge request and merges it, lists the project's events, creates snippets, and
 * rotates their token. Every step checks what it got back (node:assert); the first failure throws.
 *
 * Usage: `tsx src/clients/day-of-work.ts <base url> <admin token>` (prints OK), or
 * `dayOfWork(baseUrl, adminToken)` from a test.
 */
import { deepStrictEqual as same, ok, strictEqual as equal } from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AccessLevel, Gitlab } from "@gitbeaker/rest";

const execFileAsync = promisify(execFile);

/** Runs the whole day; resolves with the developer's username, throws at the first step that fails. */
export async function dayOfWork(url: string, adminToken: string): Promise<string> {
  const run = String(Date.now() % 100_000_000).padStart(8, "0"); // unique names: the day can run again on one server
  const username = `tsdev${run}`;
  const admin = new Gitlab({ host: url, token: adminToken });
  equal((await admin.Users.showCurrentUser()).is_admin, true, "the token given is not an administrator's");

  // Morning: the administrator creates the developer's account and a token for it.
  const dev = await admin.Users.create({ username, name: "Day Developer", email: `${username}@example.com`, password: "day-of-work-1", skipConfirmation: true });
  const pat = await admin.Users.createPersonalAccessToken(dev.id, "laptop", ["api"]);
  same(pat.scopes, ["api"]);
  const gl = new Gitlab({ host: url, token: pat.token });
  equal((await gl.Users.showCurrentUser()).username, username);

  // A group and a project in it.
  const group = await gl.Groups.create(`Team ${run}`, `ts-team-${run}`, { visibility: "private" });
  equal(group.full_path, `ts-team-${run}`);
  same((await gl.GroupMembers.all(group.id)).map((m) => m.username), [username], "the creator owns the new group");
  const project = await gl.Projects.create({ name: "Service", path: "service", namespaceId: group.id, visibility: "private" });
  equal(project.path_with_namespace, `ts-team-${run}/service`);
  equal((await gl.Projects.show(`ts-team-${run}/service`)).id, project.id);

  // A member: the demo user bob, as a developer (added by username).
  const member = await gl.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { username: "bob" });
  equal(member.username, "bob");
  equal(member.access_level, AccessLevel.DEVELOPER);
  same((await gl.ProjectMembers.all(project.id, { includeInherited: true })).map((m) => m.username).sort(), ["bob", username].sort());

  // Push with git: an initial commit on main, then a feature branch with a second commit.
  const work = mkdtempSync(join(tmpdir(), "day-of-work-ts-"));
  try {
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: work,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Day Developer",
      GIT_AUTHOR_EMAIL: `${username}@example.com`,
      GIT_COMMITTER_NAME: "Day Developer",
      GIT_COMMITTER_EMAIL: `${username}@example.com`,
    };
    const git = async (...args: string[]): Promise<string> => (await execFileAsync("git", args, { cwd: work, env })).stdout.trim();
    const remote = new URL(project.http_url_to_repo);
    remote.username = "oauth2";
    remote.password = pat.token;

    await git("init", "-q", "-b", "main");
    writeFileSync(join(work, "README.md"), "# Service\n");
    await git("add", "README.md");
    await git("commit", "-q", "-m", "Initial commit");
    await git("push", "-q", remote.toString(), "main");
    const first = await git("rev-parse", "HEAD");
    equal((await gl.Branches.show(project.id, "main")).commit.id, first);
    equal((await gl.Projects.show(project.id)).default_branch, "main");

    // An issue: open, comment, close.
    const issue = await gl.Issues.create(project.id, "The service has no health check", { description: "Add /health." });
    equal(issue.iid, 1);
    equal(issue.state, "opened");
    equal(issue.author.username, username);
    const note = await gl.IssueNotes.create(project.id, issue.iid, "I'll take this one.");
    equal(note.body, "I'll take this one.");
    equal(note.system, false);
    same((await gl.IssueNotes.all(project.id, issue.iid)).filter((n) => !n.system).map((n) => n.body), ["I'll take this one."]);
    const closed = await gl.Issues.edit(project.id, issue.iid, { stateEvent: "close" });
    equal(closed.state, "closed");
    same((await gl.Issues.all({ projectId: project.id, state: "closed" })).map((i) => i.iid), [issue.iid]);

    // A branch and a merge request, merged for real.
    const branch = await gl.Branches.create(project.id, "health-check", "main");
    equal(branch.name, "health-check");
    equal(branch.commit.id, first);
    await git("fetch", "-q", remote.toString(), "health-check");
    await git("checkout", "-q", "-b", "health-check", "FETCH_HEAD");
    writeFileSync(join(work, "health.txt"), "ok\n");
    await git("add", "health.txt");
    await git("commit", "-q", "-m", `Add a health check (closes #${issue.iid})`);
    await git("push", "-q", remote.toString(), "health-check");
    const second = await git("rev-parse", "HEAD");
    const mr = await gl.MergeRequests.create(project.id, "health-check", "main", "Add a health check", { removeSourceBranch: true });
    equal(mr.iid, 1);
    equal(mr.state, "opened");
    equal(mr.sha, second);
    same((await gl.MergeRequests.allCommits(project.id, mr.iid)).map((c) => c.id), [second]);
    same((await gl.MergeRequests.allDiffs(project.id, mr.iid)).map((d) => d.new_path), ["health.txt"]);
    const merged = await gl.MergeRequests.accept(project.id, mr.iid, { shouldRemoveSourceBranch: true, sha: second });
    equal(merged.state, "merged");
    ok(typeof merged.merge_commit_sha === "string" && merged.merge_commit_sha !== "", "the merge answers its merge commit");
    const main = await gl.Commits.show(project.id, "main");
    equal(main.id, merged.merge_commit_sha);
    same(main.parent_ids, [first, second]);
    equal(await gl.RepositoryFiles.showRaw(project.id, "health.txt", "main"), "ok\n");
    ok(!(await gl.Branches.all(project.id)).some((b) => b.name === "health-check"), "the source branch was removed");
    equal((await gl.MergeRequests.show(project.id, mr.iid)).state, "merged");

    // The day's events, newest first.
    const events = await gl.Events.all({ projectId: project.id });
    const actions = events.map((e) => `${e.action_name} ${String(e.target_type)}`);
    for (const expected of ["created null", "joined null", "pushed new null", "opened Issue", "commented on Note", "closed Issue", "opened MergeRequest", "accepted MergeRequest"]) {
      ok(actions.includes(expected), `${expected} missing from ${actions.join(", ")}`);
    }
    same([...new Set(events.filter((e) => e.action_name !== "joined").map((e) => e.author_username))], [username]);
    same(events.filter((e) => e.action_name === "joined").map((e) => e.author_username), ["bob"], "bob joined the project");
    ok(events[0] !== undefined && events.at(-1) !== undefined && events[0].created_at >= (events.at(-1)?.created_at ?? ""), "newest first");
    const pushes = (await gl.Events.all({ projectId: project.id, action: "pushed" })).map((e) => e.push_data as Record<string, unknown>);
    // The merge's push to main brought two commits: the feature's and the merge commit.
    same(pushes.filter((p) => p["ref"] === "main").map((p) => [p["action"], p["commit_to"], p["commit_count"]]), [["pushed", merged.merge_commit_sha, 2], ["created", first, 1]]);
    same([pushes.at(-1)?.["commit_title"], pushes.at(-1)?.["commit_count"]], ["Initial commit", 1]);
    same((await gl.Users.allEvents(dev.id, { targetType: "issue" })).map((e) => e.action_name).slice(0, 2), ["closed", "opened"]);

    // Snippets: a project snippet and a personal one, both with files.
    const snippet = await gl.ProjectSnippets.create(project.id, "Health check", { visibility: "private", files: [{ filePath: "curl.sh", content: "curl -f http://localhost/health\n" }] });
    equal(snippet.title, "Health check");
    same(snippet.files?.map((f) => f.path), ["curl.sh"]);
    equal(await gl.ProjectSnippets.showContent(project.id, snippet.id), "curl -f http://localhost/health\n");
    same((await gl.ProjectSnippets.all(project.id)).map((s) => s.title), ["Health check"]);
    const personal = await gl.Snippets.create("Scratch", { visibility: "private", files: [{ filePath: "todo.txt", content: "rotate the token\n" }, { filePath: "notes.md", content: "Merged !1.\n" }] });
    same(personal.files?.map((f) => f.path).sort(), ["notes.md", "todo.txt"]);
    equal((await gl.Snippets.show(personal.id)).project_id ?? null, null);
    equal(await gl.Snippets.showRepositoryFileContent(personal.id, "main", "notes.md"), "Merged !1.\n");
    ok((await gl.Snippets.all()).some((s) => s.id === personal.id));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  // Evening: rotate the token; the new one works, the old one no longer does.
  const rotated = await gl.PersonalAccessTokens.rotate("self");
  equal(rotated.name, "laptop");
  ok(rotated.token !== pat.token && rotated.id !== pat.id, "the rotation issues a new token");
  const renewed = new Gitlab({ host: url, token: rotated.token });
  equal((await renewed.Users.showCurrentUser()).username, username);
  equal((await renewed.Projects.show(project.id)).path_with_namespace, `ts-team-${run}/service`);
  const old = await fetch(`${url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": pat.token } });
  equal(old.status, 401, "the token that was rotated still works");
  await gl.Users.showCurrentUser().then(
    () => Promise.reject(new Error("gitbeaker still authenticates with the rotated token")),
    (error: unknown) => equal((error as { cause?: { response?: { status?: number } } }).cause?.response?.status, 401),
  );
  return username;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  const [url, adminToken] = process.argv.slice(2);
  if (url === undefined || adminToken === undefined) {
    console.error("usage: tsx src/clients/day-of-work.ts <base url> <admin token>");
    process.exit(2);
  }
  await dayOfWork(url, adminToken);
  console.log("OK");
}
