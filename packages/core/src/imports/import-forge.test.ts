/**
 * A project import from the external forge, end to end on the in-memory store: the stand-in forge
 * (a real HTTP server on 127.0.0.1 serving a real git repository) → the import job → the project's
 * repository, labels, milestones, issues, merge requests and notes; idempotent re-runs, cancel,
 * rate-limit waits and the token kept out of logs and git config.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Project } from "../accounts/types.js";
import { createTestForgekit, must, type TestForgekitOptions } from "../testing/fixtures.js";
import { startExtForgeStandIn, type ExtForgeStandInRepository } from "../testing/import-stand-ins/index.js";
import { waitForImport } from "../testing/wait-for-import.js";
import { memoryStore } from "../memory-store/index.js";
import type { ProjectImport } from "../ports/imports-store.js";
import { externalFailure } from "./external-failure.js";
import { restExtForge, type ExtForgeClient } from "./extforge/client.js";
import { tmpdir } from "node:os";
import type { DiffPosition } from "../activity/types.js";
import { lineCodeIn } from "../discussions/position.js";
import { diffCommits } from "../repository-api/git/diffs.js";
import { gitRepo } from "../repository-api/git/repo.js";

const TOKEN = "standin-forge-token";

const repository = (id: number, name: string, extra: Partial<ExtForgeStandInRepository> = {}): ExtForgeStandInRepository => ({
  id,
  owner: "octo",
  name,
  description: "Hello from the forge",
  git: {
    defaultBranch: "main",
    commits: [
      { message: "first", files: { "README.md": "# hello\n" }, tags: ["v1.0"] },
      { message: "feature work", branch: "feature", files: { "feature.txt": "new\n" } },
      { message: "second", files: { "src/a.txt": "a\n" } },
    ],
  },
  labels: [
    { name: "bug", color: "d73a4a", description: "Something is broken" },
    { name: "docs", color: "0075ca" },
  ],
  milestones: [
    { number: 1, title: "v1", state: "closed", description: "First" },
    { number: 2, title: "v2" },
  ],
  issues: [
    { number: 1, title: "First issue", body: "It breaks", author: "standin-user", labels: ["bug"], milestone: 2, assignees: ["someone-else", "standin-user"] },
    { number: 2, title: "Closed issue", state: "closed", author: "someone-else", labels: ["docs", "bug"], closedAt: "2024-02-01T00:00:00Z" },
  ],
  pulls: [
    { number: 3, title: "Add feature", body: "Please merge", head: "feature", state: "merged", author: "standin-user" },
    { number: 4, title: "Abandoned", head: "feature", state: "closed", author: "someone-else" },
    { number: 5, title: "Still open", head: "feature", author: "someone-else", labels: ["docs"] },
  ],
  comments: [
    { id: 101, issue: 1, body: "Me too", author: "someone-else" },
    { id: 102, issue: 3, body: "LGTM", author: "standin-user" },
  ],
  reviewComments: [
    { id: 201, pull: 3, body: "Typo here", path: "feature.txt", line: 1, author: "someone-else" },
    { id: 202, pull: 3, body: "Fixed", path: "feature.txt", line: 1, author: "standin-user", inReplyTo: 201 },
    { id: 203, pull: 3, body: "Outdated", path: "feature.txt", line: null, originalLine: 1, author: "someone-else" },
  ],
  events: [
    { id: 301, issue: 2, event: "closed", actor: "someone-else" },
    { id: 302, issue: 1, event: "labeled", actor: "standin-user", label: "bug" },
  ],
  ...extra,
});

/** A PNG's first bytes (what an attachment download brings). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
/** A repository whose texts link attachments; the bodies name the stand-in's origin, so the test sets them once it runs. */
const attachedRepository = (): ExtForgeStandInRepository => ({
  id: 49,
  owner: "octo",
  name: "attached",
  git: { commits: [{ message: "only", files: { "a.txt": "a\n" } }] },
  issues: [{ number: 1, title: "With a screenshot", author: "someone-else" }],
  pulls: [{ number: 2, title: "With notes", head: "main", author: "someone-else" }],
  comments: [{ id: 401, issue: 1, body: "", author: "someone-else" }],
  reviewComments: [{ id: 402, pull: 2, body: "", path: "a.txt", line: 1, author: "someone-else" }],
});

const only = (id: number, name: string, extra: Partial<ExtForgeStandInRepository> = {}): ExtForgeStandInRepository => ({ id, owner: "octo", name, git: { commits: [{ message: "only", files: { "a.txt": "a\n" } }] }, ...extra });

/** Until a condition holds: generous, so that a loaded machine only makes the test slower. */
const SETTLE_MS = 120_000;

/**
 * One test's world, shared with no other test (a test that timed out and runs on cannot touch the
 * next one's): its own stand-in forge serving `repos`, its own instance and log, both closed when
 * the test ends.
 */
async function scene(repos: ExtForgeStandInRepository[], imports: Partial<TestForgekitOptions["imports"]> = {}, jobs?: TestForgekitOptions["jobs"]) {
  const forge = await startExtForgeStandIn({ users: [{ id: 1, login: "standin-user", name: "Stand-in User", email: "alice@example.com", token: TOKEN }], repos, attachments: ATTACHMENTS });
  onTestFinished(() => forge.close());
  const logs: string[] = [];
  const t = await createTestForgekit({ ...(jobs === undefined ? {} : { jobs }), imports: { allowLocalNetwork: true, ...imports }, logger: { log: (level, event, fields) => void logs.push(JSON.stringify({ level, event, fields })) } });
  onTestFinished(() => t.fk.workers.stop());
  const waitFor = (projectId: number, done: (r: ProjectImport) => boolean, timeoutMs = SETTLE_MS): Promise<ProjectImport> => waitForImport(t.store, projectId, done, timeoutMs);
  const start = (repoId: number, optionalStages = {}) => must(t.fk.imports.startForge(t.users.alice, { token: TOKEN, repoId, targetNamespace: "grp", hostname: forge.url, optionalStages }));
  return { forge, t, logs, waitFor, start };
}

const ATTACHMENTS = {
  "/user-attachments/assets/5a0c1d2e": { body: PNG, contentType: "image/png" },
  "/octo/attached/files/77/notes.txt": { body: "some notes\n", contentType: "text/plain" },
  "/user-attachments/assets/huge": { body: new Uint8Array(10 * 1024 * 1024 + 1), contentType: "image/png" },
};

describe("import from the external forge (service and job)", { timeout: 2 * SETTLE_MS }, () => {
  it("imports the repository, labels, milestones, issues with their numbers, pull requests as merge requests, comments as notes", async () => {
    const { forge, t, logs, waitFor, start } = await scene([repository(42, "hello")]);
    const view = await start(42);
    expect(t.fk.imports.entity(view)).toEqual({
      id: view.project.id,
      name: "hello",
      full_path: "/grp/hello",
      full_name: "Group / hello",
      import_source: "octo/hello",
      import_status: "scheduled",
      human_import_status_name: "scheduled",
      provider_link: "/octo/hello",
      import_warning: null,
    });
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    const done = await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed");
    expect(done).toMatchObject({ status: "finished", error: null, credentials: null });
    const project: Project = view.project;

    // Repository: branches, tags and pull-request heads; HEAD on the default branch.
    const path = t.fk.config.repositoryStorage.localPath?.(project.repositoryStorage, { kind: "project", id: project.id }) ?? "";
    const refs = spawnSync("git", ["-C", path, "for-each-ref", "--format=%(refname) %(objectname)"], { encoding: "utf8" }).stdout;
    const built = forge.git["octo/hello"];
    expect(refs).toContain(`refs/heads/main ${built?.branches["main"]}`);
    expect(refs).toContain(`refs/heads/feature ${built?.branches["feature"]}`);
    expect(refs).toContain(`refs/tags/v1.0`);
    expect(spawnSync("git", ["-C", path, "symbolic-ref", "HEAD"], { encoding: "utf8" }).stdout.trim()).toBe("refs/heads/main");
    // The token is in no stored git config and no log line.
    expect(await readFile(join(path, "config"), "utf8")).not.toContain(TOKEN);
    expect(logs.join("\n")).not.toContain(TOKEN);

    // Labels and milestones.
    expect((await t.store.imports.labels.listByProject(project.id)).map((l) => [l.name, l.color])).toEqual([
      ["bug", "#d73a4a"],
      ["docs", "#0075ca"],
    ]);
    expect(await t.store.activity.milestones.findByIid(project.id, 1)).toMatchObject({ title: "v1", state: "closed" });
    expect(await t.store.activity.milestones.findByIid(project.id, 2)).toMatchObject({ title: "v2", state: "active" });

    // Issues keep their numbers. Authors: standin-user's public e-mail (GET /users/:login) is alice's
    // confirmed one, so she is the author with the text untouched; someone-else shows no e-mail, so
    // the importer (alice) is the author and the text names them.
    const issue1 = await t.store.activity.issues.findByIid(project.id, 1);
    const issue2 = await t.store.activity.issues.findByIid(project.id, 2);
    expect(issue1).toMatchObject({ title: "First issue", state: "opened", authorId: t.users.alice.id, description: "It breaks" });
    expect(issue2).toMatchObject({ title: "Closed issue", state: "closed", authorId: t.users.alice.id });
    expect(issue2?.description.startsWith("*Created by: someone-else*")).toBe(true);
    expect(forge.requests.filter((r) => r.path === "/api/v3/users/standin-user")).toHaveLength(1);

    // The issue keeps its milestone (forge number 2 → the imported milestone v2) and the assignees that map to users.
    const v2 = await t.store.activity.milestones.findByIid(project.id, 2);
    expect((await t.store.activity.issueDetails.milestonesOf([issue1?.id ?? 0, issue2?.id ?? 0])).get(issue1?.id ?? 0)).toBe(v2?.id);
    expect((await t.store.activity.issueDetails.milestonesOf([issue2?.id ?? 0])).get(issue2?.id ?? 0)).toBeNull();
    expect((await t.store.activity.issueDetails.assigneesOf([issue1?.id ?? 0])).get(issue1?.id ?? 0)).toEqual([t.users.alice.id]);
    expect((await t.store.imports.labels.labelsOf("Issue", issue2?.id ?? 0)).map((l) => l.name)).toEqual(["bug", "docs"]);

    // Pull requests: merged / closed / opened merge requests with their branches.
    expect(await t.store.activity.mergeRequests.findByIid(project.id, 3)).toMatchObject({ title: "Add feature", state: "merged", sourceBranch: "feature", targetBranch: "main" });
    expect(await t.store.activity.mergeRequests.findByIid(project.id, 4)).toMatchObject({ state: "closed" });
    expect(await t.store.activity.mergeRequests.findByIid(project.id, 5)).toMatchObject({ state: "opened" });

    // Comments and review comments as notes.
    const issueNotes = await t.store.activity.notes.listByNoteable("Issue", issue1?.id ?? 0);
    expect(issueNotes.map((n) => n.body)).toEqual(["*Created by: someone-else*\n\nMe too"]);
    const mr3 = await t.store.activity.mergeRequests.findByIid(project.id, 3);
    const mrNotes = await t.store.activity.notes.listByNoteable("MergeRequest", mr3?.id ?? 0);
    expect(mrNotes.map((n) => [n.authorId, n.type, n.body])).toEqual([
      [t.users.alice.id, null, "LGTM"],
      [t.users.alice.id, "DiffNote", "*Created by: someone-else*\n\nTypo here"],
      [t.users.alice.id, "DiffNote", "Fixed"],
      [t.users.alice.id, "DiffNote", "*Created by: someone-else*\n\nOutdated"],
    ]);

    // Imported issues and notes say where they came from (reference `imported` / `imported_from`); a note made here does not.
    expect([issue1?.importedFrom, issue2?.importedFrom, ...issueNotes.map((n) => n.importedFrom), ...mrNotes.map((n) => n.importedFrom)]).toEqual(Array(7).fill("extforge"));
    const get = async (path: string) => JSON.parse(String((await t.fk.handle({ method: "GET", path: `/api/v4/projects/${project.id}${path}`, rawQuery: "", headers: { "private-token": t.tokens.alice } })).body)) as Record<string, unknown>;
    expect(await get("/issues/1")).toMatchObject({ imported: true, imported_from: "extforge" });
    expect(await get(`/issues/1/notes/${issueNotes[0]?.id ?? 0}`)).toMatchObject({ imported: true, imported_from: "extforge" });
    const local = await t.store.activity.notes.create({ projectId: project.id, noteableType: "Issue", noteableId: issue1?.id ?? 0, authorId: t.users.alice.id, body: "here", system: false }, t.clock.now());
    expect(await get(`/issues/1/notes/${local.id}`)).toMatchObject({ imported: false, imported_from: "none" });
    // Review comments are diff notes (reference DiffNoteImporter): a reply joins its comment's
    // discussion; the position has the merge request's diff refs (head: the pull request's head,
    // start: the target branch, base: their merge base), the path, and the line on its side
    // (an outdated comment keeps its original line) — a line of that diff.
    const [, typo, fixed, outdated] = mrNotes;
    expect(fixed?.discussionId).toBe(typo?.discussionId);
    expect(outdated?.discussionId).not.toBe(typo?.discussionId);
    const first = spawnSync("git", ["-C", path, "rev-list", "--max-parents=0", "main"], { encoding: "utf8" }).stdout.trim();
    const expected = { baseSha: first, startSha: built?.branches["main"], headSha: built?.branches["feature"], positionType: "text", oldPath: "feature.txt", newPath: "feature.txt", oldLine: null, newLine: 1, lineRange: null };
    expect(typo?.position).toEqual(expected);
    expect(outdated?.position).toEqual(expected);
    expect(typo?.commitId).toBe(built?.branches["feature"]);
    const diffs = await diffCommits(gitRepo(path, { home: tmpdir() }), first, built?.branches["feature"] ?? "");
    expect(lineCodeIn(diffs, typo?.position as DiffPosition)).toMatch(/^[0-9a-f]{40}_0_1$/);
    const threads = await t.store.discussions.page("MergeRequest", mr3?.id ?? 0, { kind: "offset", page: 1, perPage: 20 });
    expect(threads.items.map((d) => d.notes.map((n) => n.body.split("\n").at(-1)))).toEqual([["LGTM"], ["Typo here", "Fixed"], ["Outdated"]]);

    // Status with counts.
    const status = await must(t.fk.imports.status(t.users.alice, project));
    expect(status).toMatchObject({ import_status: "finished", import_error: null, stats: { fetched: { issue: 2, merge_request: 3, label: 2, milestone: 2, note: 5 }, imported: { issue: 2, merge_request: 3, note: 5 } } });
  });

  it("a re-run of the job after it finished writes nothing twice (idempotent by external id)", async () => {
    const { t, waitFor, start } = await scene([repository(43, "second")]);
    const view = await start(43);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(view.project.id, (r) => r.status === "finished");
    await t.fk.workers.stop();
    // Put the import back to started with its checkpoint at the beginning, as a worker killed early would leave it.
    const record = await t.store.imports.projects.find(view.project.id);
    const job = await must(t.fk.jobs.enqueue("imports.project", { projectId: view.project.id }));
    await t.store.imports.projects.update(view.project.id, ["finished"], { status: "started", jobId: job.id, checkpoint: null, stats: "{}", credentials: JSON.stringify({ token: TOKEN }) }, t.clock.now());
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(view.project.id, (r) => r.status === "finished");
    const issues = await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 100 });
    expect(issues.items.map((i) => i.iid)).toEqual([1, 2]);
    const mrs = await t.store.activity.mergeRequests.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 100 });
    expect(mrs.items.map((m) => m.iid)).toEqual([3, 4, 5]);
    const issue1 = await t.store.activity.issues.findByIid(view.project.id, 1);
    expect(await t.store.activity.notes.listByNoteable("Issue", issue1?.id ?? 0)).toHaveLength(1);
    expect(record?.status).toBe("finished");
  });

  it("optional stages: per-record comments and events as system notes", async () => {
    const { t, waitFor, start } = await scene([repository(45, "events")]);
    const view = await start(45, { single_endpoint_notes_import: true, single_endpoint_issue_events_import: true });
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    const done = await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed");
    expect(done.status).toBe("finished");
    const issue2 = await t.store.activity.issues.findByIid(view.project.id, 2);
    const notes = await t.store.activity.notes.listByNoteable("Issue", issue2?.id ?? 0);
    expect(notes.filter((n) => n.system).map((n) => n.body)).toEqual(["closed (by someone-else on the forge)"]);
    const issue1 = await t.store.activity.issues.findByIid(view.project.id, 1);
    const notes1 = await t.store.activity.notes.listByNoteable("Issue", issue1?.id ?? 0);
    expect(notes1.map((n) => [n.system, n.body])).toEqual([
      [false, "*Created by: someone-else*\n\nMe too"],
      [true, 'added ~"bug" label'],
    ]);
  });

  it("cancel while queued: the import is canceled, its job cancelled, nothing is imported", async () => {
    const { t, start } = await scene([repository(44, "third")]);
    const view = await start(44);
    const cancelled = await must(t.fk.imports.cancel(t.users.alice, view.project.id));
    expect(t.fk.imports.entity(cancelled)).toMatchObject({ import_status: "canceled", human_import_status_name: "canceled" });
    expect((await must(t.fk.jobs.find(view.record.jobId ?? 0))).state).toBe("cancelled");
    // A poll that found nothing due and nothing running: the cancelled job was not taken.
    let idle: () => void = () => undefined;
    const polled = new Promise<void>((resolve) => (idle = resolve));
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false, onIdle: () => idle() }).isOk()).toBe(true);
    await polled;
    expect((await t.store.imports.projects.find(view.project.id))?.status).toBe("canceled");
    expect((await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 10 })).items).toEqual([]);
    const again = await t.fk.imports.cancel(t.users.alice, view.project.id);
    expect(again._unsafeUnwrapErr()).toEqual({ code: "bad_request_message", message: "The import cannot be canceled because it is canceled" });
  });

  it("cancel while it runs: the job stops at its next page, no record is written after, the import stays canceled", async () => {
    const { t, waitFor, start } = await scene([only(46, "big", { generated: { issues: 1500, commentsPerIssue: 1 } })]);
    const view = await start(46);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(view.project.id, (r) => r.checkpoint !== null && r.checkpoint.includes('"issues"') && r.stats.includes('"issue"'));
    await must(t.fk.imports.cancel(t.users.alice, view.project.id));
    const jobId = view.record.jobId ?? 0;
    for (const started = Date.now(); (await must(t.fk.jobs.find(jobId))).state === "running" && Date.now() - started < SETTLE_MS; ) await new Promise((r) => setTimeout(r, 10));
    expect((await must(t.fk.jobs.find(jobId))).state).toBe("cancelled");
    const count = async () => (await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 1 })).total;
    const after = await count();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(1500);
    // Nothing runs any more: the count stays.
    await t.fk.workers.stop();
    expect(await count()).toBe(after);
    expect(await t.store.imports.projects.find(view.project.id)).toMatchObject({ status: "canceled", credentials: null });
  });

  it("rate limited: the job hands the import to a successor due at the reset, which resumes and finishes", async () => {
    const { forge, t, waitFor, start } = await scene([only(47, "limited", { generated: { issues: 3 } })]);
    const view = await start(47);
    const until = Date.now() + 3_600_000;
    forge.exhaustRateLimit(until);
    try {
      expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
      const waiting = await waitFor(view.project.id, (r) => r.jobId !== view.record.jobId);
      expect(waiting.status).toBe("started");
      expect((await must(t.fk.jobs.find(view.record.jobId ?? 0))).state).toBe("succeeded");
      const successor = await must(t.fk.jobs.find(waiting.jobId ?? 0));
      expect(successor.state).toBe("queued");
      // Due one second after the forge's reset (X-RateLimit-Reset has whole seconds).
      expect(Math.abs(successor.runAfter.getTime() - (Math.floor(until / 1000) * 1000 + 1000))).toBeLessThanOrEqual(1000);
    } finally {
      forge.exhaustRateLimit(0);
    }
    t.clock.set(new Date(until + 5_000));
    const done = await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed");
    expect(done.status).toBe("finished");
    expect((await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 10 })).total).toBe(3);
  });

  it("a worker stopped mid-import hands the job back; the next one resumes at the checkpoint without duplicates", async () => {
    const { forge, t, waitFor, start } = await scene([only(48, "resumed", { generated: { issues: 800 } })]);
    const view = await start(48);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(view.project.id, (r) => r.checkpoint !== null && r.checkpoint.includes('"issues"') && r.stats.includes('"issue"'));
    await t.fk.workers.stop();
    const paused = await t.store.imports.projects.find(view.project.id);
    expect(paused?.status).toBe("started");
    const before = forge.requests.length;
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed");
    const issues = await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 100 });
    expect(issues.total).toBe(800);
    // The resumed run did not read the issue pages already written again (page 1 is asked for once in all).
    const firstPages = forge.requests.slice(before).filter((r) => r.path.endsWith("/repos/octo/resumed/issues") && /(^|&)page=1(&|$)/.test(r.query));
    expect(forge.requests.slice(before).some((r) => r.path.endsWith("/repos/octo/resumed/issues"))).toBe(true);
    expect(firstPages).toEqual([]);
  });

  it("jobs kept apart from the store (e.g. BullMQ): the import's job is queued there after the commit, linked to the import, and runs it", async () => {
    const apart = memoryStore().jobs;
    const { t, waitFor, start } = await scene([only(51, "apart", { generated: { issues: 3 } })], {}, apart);
    const view = await start(51);
    expect(view.record.jobId).not.toBeNull();
    expect(await apart.findById(view.record.jobId ?? 0)).toMatchObject({ kind: "imports.project", state: "queued" });
    expect((await t.store.jobs.list({}, { kind: "offset", page: 1, perPage: 10 })).items).toEqual([]);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    const done = await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed");
    expect(done.status).toBe("finished");
    expect((await t.store.activity.issues.listByProject(view.project.id, { kind: "offset", page: 1, perPage: 10 })).total).toBe(3);
  });

  it("a forge client without user(login) still imports: authors map only by the e-mails the lists carry (none here), the importer is named", async () => {
    const { forge, t, waitFor, start } = await scene([repository(43, "second")], {
      extForge: (options) => {
        const client: ExtForgeClient = { ...restExtForge(options) };
        delete client.user;
        return client;
      },
    });
    const before = forge.requests.filter((r) => r.path.includes("/users/")).length;
    const view = await start(43);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    expect((await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed")).status).toBe("finished");
    const issue1 = await t.store.activity.issues.findByIid(view.project.id, 1);
    expect(issue1).toMatchObject({ authorId: t.users.alice.id, description: "*Created by: standin-user*\n\nIt breaks" });
    expect((await t.store.activity.issueDetails.assigneesOf([issue1?.id ?? 0])).get(issue1?.id ?? 0)).toEqual([]);
    expect(forge.requests.filter((r) => r.path.includes("/users/")).length).toBe(before);
  });

  it("attachments_import: the forge's attachments are stored with the project and the texts point at forgekit's copies; other links, and attachments over 10 MiB, stay", async () => {
    const attached = attachedRepository();
    const { forge, t, logs, waitFor, start } = await scene([attached]);
    const shot = `${forge.url}/user-attachments/assets/5a0c1d2e`;
    const notes = `${forge.url}/octo/attached/files/77/notes.txt`;
    const huge = `${forge.url}/user-attachments/assets/huge`;
    const [issue] = attached.issues ?? [];
    const [pull] = attached.pulls ?? [];
    const [comment] = attached.comments ?? [];
    const [review] = attached.reviewComments ?? [];
    if (issue === undefined || pull === undefined || comment === undefined || review === undefined) throw new Error("fixture");
    issue.body = `See ![screen](${shot}) and [elsewhere](https://example.com/x.png) and ![big](${huge}).`;
    pull.body = `Notes: [notes.txt](${notes})`;
    comment.body = `Again: ![screen](${shot} "title")`;
    review.body = `[notes](<${notes}>)`;
    const view = await start(49, { attachments_import: true });
    expect(t.fk.imports.entity(view).import_warning).toBeNull();
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    expect((await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed")).status).toBe("finished");

    const uploads = new RegExp(`^${t.fk.config.baseUrl}/grp/attached/uploads/([0-9a-f]{32})/([\\w.-]+)$`);
    const description = (await t.store.activity.issues.findByIid(view.project.id, 1))?.description ?? "";
    const shotCopy = /!\[screen\]\(([^)]+)\)/.exec(description)?.[1] ?? "";
    expect(shotCopy).toMatch(uploads);
    expect(shotCopy.endsWith("/5a0c1d2e.png")).toBe(true);
    expect(description).toContain("[elsewhere](https://example.com/x.png)");
    expect(description).toContain(`![big](${huge})`);
    // The same attachment is stored once and linked from the comment too (its title kept).
    const issueRecord = await t.store.activity.issues.findByIid(view.project.id, 1);
    const [note] = await t.store.activity.notes.listByNoteable("Issue", issueRecord?.id ?? 0);
    expect(note?.body).toContain(`Again: ![screen](${shotCopy} "title")`);
    const mr = await t.store.activity.mergeRequests.findByIid(view.project.id, 2);
    const notesCopy = /\[notes\.txt\]\(([^)]+)\)/.exec(mr?.description ?? "")?.[1] ?? "";
    expect(notesCopy).toMatch(uploads);
    const [reviewNote] = await t.store.activity.notes.listByNoteable("MergeRequest", mr?.id ?? 0);
    expect(reviewNote?.body).toContain(`[notes](<${notesCopy}>)`);

    // The files are in the project's repository directory.
    const directory = t.fk.config.repositoryStorage.localPath?.(view.project.repositoryStorage, { kind: "project", id: view.project.id }) ?? "";
    const [, shotSecret, shotName] = uploads.exec(shotCopy) ?? [];
    expect(new Uint8Array(await readFile(join(directory, "forgekit-uploads", shotSecret ?? "", shotName ?? "")))).toEqual(PNG);
    const [, notesSecret, notesName] = uploads.exec(notesCopy) ?? [];
    expect(await readFile(join(directory, "forgekit-uploads", notesSecret ?? "", notesName ?? ""), "utf8")).toBe("some notes\n");
    expect(logs.some((line) => line.includes("imports.attachment_skipped"))).toBe(true);
  });

  it("a forge host name that stops resolving during the import is retried with backoff under its own message, and the import finishes once it resolves again", async () => {
    let resolves = true;
    // The forge as a host name whose lookups fail (EAI_AGAIN) while `resolves` is false: a DNS outage during the job.
    const lookup = (hostname: string) =>
      resolves ? Promise.resolve([{ address: "127.0.0.1", family: 4 }]) : Promise.reject(Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" }));
    const { forge, t, waitFor, start } = await scene([repository(43, "second")], {
      extForge: (options) => restExtForge({ ...options, hostname: forge.url.replace("127.0.0.1", "forge.test"), lookup }),
    });
    const view = await start(43);
    const jobId = view.record.jobId ?? 0;
    resolves = false;
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    // Until the first attempt ended: back in the queue (a retry) or finished for good.
    const ended = (job: { state: string; attempts: number }) => job.attempts >= 1 && job.state !== "running";
    for (const started = Date.now(); !ended(await must(t.fk.jobs.find(jobId))); ) {
      if (Date.now() - started > SETTLE_MS) throw new Error("the first attempt did not end");
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await must(t.fk.jobs.find(jobId))).toMatchObject({ state: "queued", attempts: 1, lastError: "Error: Could not resolve the forge's host name (forge.test)" });
    expect((await t.store.imports.projects.find(view.project.id))?.status).toBe("started");
    resolves = true;
    t.clock.advance(60_000);
    expect((await waitFor(view.project.id, (r) => r.status === "finished" || r.status === "failed")).status).toBe("finished");
    expect((await must(t.fk.jobs.find(jobId))).attempts).toBe(2);
  });

  it("a refusal by the forge during the import fails it at once with the error kept (import_error) and the credentials cleared", async () => {
    const { t, waitFor, start } = await scene([repository(44, "third")], {
      extForge: (options) => ({
        ...restExtForge(options),
        labels: () => {
          throw externalFailure("extforge", "unauthorized", "The forge did not accept the token (401)", { status: 401 });
        },
      }),
    });
    const view = await start(44);
    expect(t.fk.workers.start({ pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    const failed = await waitFor(view.project.id, (r) => r.status === "failed" || r.status === "finished");
    expect(failed).toMatchObject({ status: "failed", error: "The forge did not accept the token (401)", credentials: null });
    expect(await must(t.fk.imports.status(t.users.alice, view.project))).toMatchObject({ import_status: "failed", import_error: "The forge did not accept the token (401)" });
    expect(t.fk.imports.entity({ ...view, record: failed })).toMatchObject({ import_status: "failed", import_error: "The forge did not accept the token (401)" });
  });
});
