/**
 * Webhook deliveries (issue 20 "Done means"): a `git push`, an issue opened and closed, a note, a
 * merge request opened and merged reach a real receiver on 127.0.0.1 through the durable
 * `webhooks.deliver` jobs with the reference's payload fields (doc "Webhook events"); a receiver
 * down for a while then up gets every event once per idempotency key, in order; a hook failing
 * repeatedly is disabled as the reference does and a successful test re-enables it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { createGitClient, gitUrl, type GitClient } from "../git-cli.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import { startHookReceiver, type HookReceiver, type ReceivedHook } from "../hook-receiver.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { until } from "../jobs-conformance/context.js";

/** The keys of the reference's documented push payload (doc "Webhook events" → Push events, plus `message` and `push_options` of `Gitlab::DataBuilder::Push`). */
const PUSH_KEYS = ["object_kind", "event_name", "before", "after", "ref", "ref_protected", "checkout_sha", "message", "user_id", "user_name", "user_username", "user_email", "user_avatar", "project_id", "project", "commits", "total_commits_count", "push_options", "repository"];
const PROJECT_KEYS = ["id", "name", "description", "web_url", "avatar_url", "git_ssh_url", "git_http_url", "namespace", "visibility_level", "path_with_namespace", "default_branch", "ci_config_path", "homepage", "url", "ssh_url", "http_url"];
const REPOSITORY_KEYS = ["name", "url", "description", "homepage", "git_http_url", "git_ssh_url", "visibility_level"];
const COMMIT_KEYS = ["id", "message", "title", "timestamp", "url", "author", "added", "modified", "removed"];
/** Keys of a label in issue and merge request payloads (reference `Label#hook_attrs`, doc example). */
const LABEL_KEYS = ["id", "title", "color", "project_id", "created_at", "updated_at", "template", "description", "type", "group_id"];
/** Keys of a user in `assignees` (reference `User#hook_attrs`). */
const USER_KEYS = ["id", "name", "username", "avatar_url", "email"];
const keys = (value: unknown) => Object.keys(value as object).sort();

export const webHookDeliverySuite: HttpSuite = (h: HttpHarness) => {
  describe("webhook deliveries", () => {
    let t: TestForgekit;
    let git: GitClient;
    let base: string;
    let project: Project;
    let receiver: HookReceiver;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
    const addHook = async (json: Record<string, unknown>) => {
      const r = await h.request("POST", api("/hooks"), { ...as(t.tokens.alice), json: { url: receiver.url, ...json } });
      expect(r.status).toBe(201);
      return (r.json as { id: number }).id;
    };
    const removeHook = (id: number) => h.request("DELETE", api(`/hooks/${id}`), as(t.tokens.alice));
    const of = (event: string, from = 0) => receiver.received.slice(from).filter((r) => r.headers["x-gitlab-event"] === event);
    const body = (r: ReceivedHook | undefined) => (r?.body ?? {}) as Record<string, unknown>;

    /** Whether any of the hooks still has a delivery to send (queued, or waiting for a retry). */
    const pending = async (...hooks: number[]) => {
      for (const hook of hooks) if ((await t.store.webHooks.firstPending(hook)) !== null) return true;
      return false;
    };

    beforeAll(async () => {
      t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
      base = await h.serve(t.fk);
      git = createGitClient();
      const started = t.fk.workers.start({ pollIntervalMs: 20, recurring: false });
      if (started.isErr()) throw new Error(`workers did not start: ${started.error.code}`);
    });
    afterAll(async () => {
      await t.fk.workers.stop();
      git.cleanup();
    });
    // Each test its own project (hooks, repository, events) and its own receiver (what it got, the
    // status it answers): nothing another test pushed, queued, retries or made fail reaches it.
    let seq = 0;
    beforeEach(async () => {
      seq += 1;
      receiver = await startHookReceiver();
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: `delivered-${seq}`, name: `Delivered ${seq}`, visibility: "private", creatorId: t.users.alice.id });
    });
    afterEach(async () => {
      await receiver.close();
    });

    it("a git push → Push Hook with the reference's fields, the pushed commits (oldest first) and their changed paths", async () => {
      const hook = await addHook({ push_events: true, token: "push-secret" });
      const from = receiver.received.length;
      const work = git.path("push");
      await git.must(["init", "-q", "-b", "main", work]);
      writeFileSync(join(work, "README.md"), "one\n");
      await git.must(["add", "."], { cwd: work });
      await git.must(["-c", "user.name=Ann Author", "-c", "user.email=ann@example.com", "commit", "-q", "-m", "First\n\nWith a body"], { cwd: work });
      writeFileSync(join(work, "README.md"), "two\n");
      writeFileSync(join(work, "NEW.md"), "new\n");
      await git.must(["add", "."], { cwd: work });
      await git.must(["-c", "user.name=Ann Author", "-c", "user.email=ann@example.com", "commit", "-q", "-m", "Second"], { cwd: work });
      await git.must(["push", "-q", gitUrl(base, `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice }), "main"], { cwd: work });
      const head = (await git.must(["rev-parse", "HEAD"], { cwd: work })).trim();
      const first = (await git.must(["rev-parse", "HEAD~1"], { cwd: work })).trim();
      await until(() => of("Push Hook", from).length >= 1, "the push delivery");
      const got = of("Push Hook", from)[0];
      expect(got?.headers["x-gitlab-token"]).toBe("push-secret");
      const payload = body(got);
      expect(Object.keys(payload).sort()).toEqual([...PUSH_KEYS].sort());
      expect(Object.keys(payload["project"] as object).sort()).toEqual([...PROJECT_KEYS].sort());
      expect(Object.keys(payload["repository"] as object).sort()).toEqual([...REPOSITORY_KEYS].sort());
      expect(payload).toMatchObject({
        object_kind: "push",
        event_name: "push",
        before: "0".repeat(40),
        after: head,
        ref: "refs/heads/main",
        checkout_sha: head,
        user_id: t.users.alice.id,
        user_username: "alice",
        project_id: project.id,
        total_commits_count: 2,
        project: { id: project.id, path_with_namespace: project.fullPath, web_url: `${t.baseUrl}/${project.fullPath}`, git_http_url: `${t.baseUrl}/${project.fullPath}.git`, visibility_level: 0, namespace: t.groups.grp.name },
      });
      const commits = payload["commits"] as Record<string, unknown>[];
      expect(commits.map((c) => Object.keys(c).sort())).toEqual([[...COMMIT_KEYS].sort(), [...COMMIT_KEYS].sort()]);
      expect(commits.map((c) => [c["id"], c["title"], c["added"], c["modified"], c["removed"]])).toEqual([
        [first, "First", ["README.md"], [], []],
        [head, "Second", ["NEW.md"], ["README.md"], []],
      ]);
      expect(commits[0]).toMatchObject({ message: "First\n\nWith a body\n", url: `${t.baseUrl}/${project.fullPath}/-/commit/${first}`, author: { name: expect.any(String), email: "[REDACTED]" } });
      await removeHook(hook);
    });

    it("an issue opened and closed, and a note on it → Issue Hook (open, close) and Note Hook", async () => {
      const hook = await addHook({ push_events: false, issues_events: true, note_events: true });
      const from = receiver.received.length;
      const issue = (await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json: { title: "Broken", description: "It is" } })).json as { iid: number; id: number };
      await h.request("POST", api(`/issues/${issue.iid}/notes`), { ...as(t.tokens.alice), json: { body: "Looking" } });
      await h.request("PUT", api(`/issues/${issue.iid}`), { ...as(t.tokens.alice), json: { state_event: "close" } });
      await until(() => of("Issue Hook", from).length >= 2 && of("Note Hook", from).length >= 1, "the issue and note deliveries");
      const [opened, closed] = of("Issue Hook", from).map(body);
      expect(opened).toMatchObject({ object_kind: "issue", event_type: "issue", user: { id: t.users.alice.id, username: "alice" }, project: { id: project.id }, object_attributes: { id: issue.id, iid: issue.iid, title: "Broken", action: "open", url: `${t.baseUrl}/${project.fullPath}/-/issues/${issue.iid}` } });
      expect(closed).toMatchObject({ object_kind: "issue", object_attributes: { action: "close", state: "closed" } });
      const note = body(of("Note Hook", from)[0]);
      expect(note).toMatchObject({ object_kind: "note", event_type: "note", project_id: project.id, object_attributes: { note: "Looking", noteable_type: "Issue", action: "create" }, issue: { iid: issue.iid } });
      // Order per hook: opened before the note before closed.
      expect(receiver.received.slice(from).map((r) => r.headers["x-gitlab-event"])).toEqual(["Issue Hook", "Note Hook", "Issue Hook"]);
      await removeHook(hook);
    });

    it("an issue with labels and assignees → Issue Hook with labels (the label rows) and assignees, and their ids in object_attributes", async () => {
      const hook = await addHook({ push_events: false, issues_events: true });
      const from = receiver.received.length;
      const made = await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json: { title: "Labelled", labels: "bug,ui", assignee_ids: [t.users.alice.id] } });
      expect(made.status).toBe(201);
      const issue = made.json as { id: number };
      await until(() => of("Issue Hook", from).length >= 1, "the issue delivery");
      const opened = body(of("Issue Hook", from)[0]);
      const labels = opened["labels"] as Record<string, unknown>[];
      expect(labels.map((l) => l["title"])).toEqual(["bug", "ui"]);
      expect(labels.map(keys)).toEqual([[...LABEL_KEYS].sort(), [...LABEL_KEYS].sort()]);
      expect(labels[0]).toMatchObject({ id: expect.any(Number), color: expect.stringMatching(/^#[0-9a-fA-F]{6}$/), project_id: project.id, template: false, type: "ProjectLabel", group_id: null });
      expect((opened["assignees"] as unknown[]).map(keys)).toEqual([[...USER_KEYS].sort()]);
      expect(opened["assignees"]).toEqual([{ id: t.users.alice.id, name: t.users.alice.name, username: "alice", avatar_url: t.users.alice.avatarUrl, email: "[REDACTED]" }]);
      expect(opened["object_attributes"]).toMatchObject({ id: issue.id, assignee_ids: [t.users.alice.id], assignee_id: t.users.alice.id, labels });
      await removeHook(hook);
    });

    it("an issue without assignees has no assignees key and an empty labels list", async () => {
      const hook = await addHook({ push_events: false, issues_events: true });
      const from = receiver.received.length;
      expect((await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json: { title: "Bare" } })).status).toBe(201);
      await until(() => of("Issue Hook", from).length >= 1, "the issue delivery");
      const opened = body(of("Issue Hook", from)[0]);
      expect(opened["labels"]).toEqual([]);
      expect("assignees" in opened).toBe(false);
      expect(opened["object_attributes"]).toMatchObject({ assignee_ids: [], assignee_id: null, labels: [] });
      await removeHook(hook);
    });

    it("a confidential issue goes only to a hook with confidential issue events on", async () => {
      const open = await addHook({ push_events: false, issues_events: true });
      const secret = await addHook({ push_events: false, confidential_issues_events: true, name: "secret" });
      const from = receiver.received.length;
      await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json: { title: "Hidden", confidential: true } });
      await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json: { title: "Visible" } });
      await until(() => receiver.received.length - from >= 2, "two deliveries");
      // Every delivery queued with the two issues is through: nothing more is coming.
      await until(async () => !(await pending(open, secret)), "no pending delivery of either hook");
      const got = receiver.received.slice(from).map((r) => [r.headers["x-gitlab-event"], ((r.body as { object_attributes: { title: string } }).object_attributes).title]);
      expect(got.sort()).toEqual([["Confidential Issue Hook", "Hidden"], ["Issue Hook", "Visible"]]);
      await removeHook(open);
      await removeHook(secret);
    });

    it("a merge request opened and merged → Merge Request Hook (open, merge)", async () => {
      // The project's `main` (the target) and `feature` (the source), pushed before the hook exists.
      const work = git.path("mr");
      await git.must(["init", "-q", "-b", "main", work]);
      writeFileSync(join(work, "README.md"), "one\n");
      await git.must(["add", "."], { cwd: work });
      await git.must(["-c", "user.name=Ann", "-c", "user.email=ann@example.com", "commit", "-q", "-m", "Initial"], { cwd: work });
      await git.must(["remote", "add", "origin", gitUrl(base, `${project.fullPath}.git`, { username: "alice", password: t.tokens.alice })], { cwd: work });
      await git.must(["push", "-q", "origin", "main"], { cwd: work });
      await git.must(["checkout", "-q", "-b", "feature"], { cwd: work });
      writeFileSync(join(work, "feature.txt"), "feature\n");
      await git.must(["add", "."], { cwd: work });
      await git.must(["-c", "user.name=Ann", "-c", "user.email=ann@example.com", "commit", "-q", "-m", "Feature"], { cwd: work });
      await git.must(["push", "-q", "origin", "feature"], { cwd: work });
      const hook = await addHook({ push_events: false, merge_requests_events: true });
      const from = receiver.received.length;
      const mr = (await h.request("POST", api("/merge_requests"), { ...as(t.tokens.alice), json: { source_branch: "feature", target_branch: "main", title: "Add feature", labels: "review", assignee_ids: [t.users.alice.id] } })).json as { iid: number; id: number };
      const merged = await h.request("PUT", api(`/merge_requests/${mr.iid}/merge`), as(t.tokens.alice));
      expect(merged.status).toBe(200);
      await until(() => of("Merge Request Hook", from).length >= 2, "the merge request deliveries");
      const [opened, done] = of("Merge Request Hook", from).map(body);
      expect(opened).toMatchObject({ object_kind: "merge_request", event_type: "merge_request", user: { username: "alice" }, object_attributes: { id: mr.id, iid: mr.iid, source_branch: "feature", target_branch: "main", action: "open", url: `${t.baseUrl}/${project.fullPath}/-/merge_requests/${mr.iid}` } });
      expect(done).toMatchObject({ object_attributes: { action: "merge", state: "merged" } });
      expect((opened?.["labels"] as { title: string }[]).map((l) => l.title)).toEqual(["review"]);
      expect((opened?.["labels"] as unknown[]).map(keys)).toEqual([[...LABEL_KEYS].sort()]);
      expect(opened?.["assignees"]).toMatchObject([{ id: t.users.alice.id, username: "alice", email: "[REDACTED]" }]);
      expect(opened?.["object_attributes"]).toMatchObject({ assignee_ids: [t.users.alice.id], assignee_id: t.users.alice.id });
      await removeHook(hook);
    });

    it("the receiver down for a while, then up: every event delivered once per idempotency key, in order", async () => {
      const hook = await addHook({ push_events: true, branch_filter_strategy: "wildcard", push_events_branch_filter: "topic-*" });
      const from = receiver.received.length;
      receiver.status = 503;
      const sha = (n: number) => n.toString(16).padStart(40, "c");
      for (const n of [1, 2, 3]) await must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: `topic-${n}`, commitFrom: sha(n), commitTo: sha(n + 10), commitCount: 1 }));
      // Filtered out: not a topic branch.
      await must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: "other", commitFrom: sha(7), commitTo: sha(8), commitCount: 1 }));
      await until(() => receiver.received.length - from >= 1, "a failed attempt while the receiver is down");
      receiver.status = 200;
      await until(
        async () => {
          // The backoff waits on the instance's clock: move it on until all three are through.
          t.clock.advance(11 * 60_000);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return new Set(receiver.received.slice(from).map((r) => (r.body as { ref: string }).ref)).has("refs/heads/topic-3");
        },
        "all three deliveries",
      );
      const all = receiver.received.slice(from);
      const refs = all.map((r) => (r.body as { ref: string }).ref);
      expect(refs).not.toContain("refs/heads/other");
      // Every attempt of one event carried the same key; the events came in order, each once the earlier ones were through.
      const keys = new Map<string, string>();
      for (const r of all) {
        const key = r.headers["idempotency-key"] as string;
        const ref = (r.body as { ref: string }).ref;
        expect(keys.get(ref) ?? key).toBe(key);
        keys.set(ref, key);
      }
      expect(new Set(keys.values()).size).toBe(3);
      const firstSeen = [...new Set(refs)];
      expect(firstSeen).toEqual(["refs/heads/topic-1", "refs/heads/topic-2", "refs/heads/topic-3"]);
      const log = await h.request("GET", api(`/hooks/${hook}/events`), { ...as(t.tokens.alice), query: { status: "successful", per_page: "100" } });
      const delivered = (log.json as { request_headers: Record<string, string>; request_data: { ref: string } }[]).reverse();
      expect(delivered.map((l) => l.request_data.ref)).toEqual(["refs/heads/topic-1", "refs/heads/topic-2", "refs/heads/topic-3"]);
      expect(delivered.map((l) => l.request_headers["Idempotency-Key"])).toEqual([...keys.values()]);
      await removeHook(hook);
    });

    it("a hook failing repeatedly is temporarily disabled (alert_status, disabled_until); a successful test re-enables it", async () => {
      const hook = await addHook({ push_events: true, push_events_branch_filter: "fail-me" });
      receiver.status = 500;
      const from = receiver.received.length;
      await must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: "fail-me", commitFrom: "d".repeat(40), commitTo: "e".repeat(40), commitCount: 1 }));
      const show = async () => (await h.request("GET", api(`/hooks/${hook}`), as(t.tokens.alice))).json as { alert_status: string; disabled_until: string | null };
      await until(
        async () => {
          // Move the clock past each retry's backoff until the fourth request came in (never after:
          // the hook is then disabled for one minute of that clock).
          if (receiver.received.length - from < 4) {
            t.clock.advance(11 * 60_000);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return (await show()).alert_status === "temporarily_disabled";
        },
        "the hook disabled after four failed attempts",
      );
      const shown = await show();
      expect(receiver.received.length - from).toBe(4);
      expect(shown.alert_status).toBe("temporarily_disabled");
      expect(shown.disabled_until).not.toBeNull();
      receiver.status = 200;
      const tested = await h.request("POST", api(`/hooks/${hook}/test/push_events`), as(t.tokens.alice));
      expect(tested.status).toBe(201);
      expect(((await h.request("GET", api(`/hooks/${hook}`), as(t.tokens.alice))).json as { alert_status: string }).alert_status).toBe("executable");
      await removeHook(hook);
    });
  });
};
