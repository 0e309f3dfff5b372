/**
 * The `changes` of Issue and Merge Request Hooks (issue 20 "payloads exactly as the reference
 * documents them"; reference `Issuable#to_hook_data`, `hook_association_changes`,
 * `IssuableBaseService#update`), delivered to a real receiver on 127.0.0.1: an edit reports the
 * attributes and lists it changed, each `{previous, current}`; a close, reopen or merge the columns
 * the state change wrote; an issue opened the columns its insert wrote; a merge request opened
 * none; an update that changes nothing still sends its `update` hook. Every test has its own
 * project, hook and receiver.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import { startHookReceiver, type HookReceiver, type ReceivedHook } from "../hook-receiver.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { until } from "../jobs-conformance/context.js";

/**
 * Top-level keys of the documented Issue Hook example (doc "Webhook events" → Work item events),
 * without the deprecated `assignee` the reference's builder no longer adds.
 */
const ISSUE_KEYS = ["object_kind", "event_type", "user", "project", "object_attributes", "labels", "changes", "repository", "assignees"];
/** Keys of a label (reference `Label#hook_attrs`, as in the documented `changes.labels`). */
const LABEL_KEYS = ["id", "title", "color", "project_id", "created_at", "updated_at", "template", "description", "type", "group_id"];
/** Keys of a user in `assignees` and `reviewers` (reference `User#hook_attrs`). */
const USER_KEYS = ["id", "name", "username", "avatar_url", "email"];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const keys = (value: unknown) => Object.keys(value as object).sort();
const sorted = (list: readonly string[]) => [...list].sort();

type Payload = Record<string, unknown> & { object_attributes: Record<string, unknown>; changes: Record<string, { previous: unknown; current: unknown }> };

export const webHookChangesDeliverySuite: HttpSuite = (h: HttpHarness) => {
  describe("webhook deliveries: changes of issues and merge requests", () => {
    let t: TestForgekit;
    let project: Project;
    let receiver: HookReceiver;
    const as = (token: string) => ({ headers: { "private-token": token } });
    const api = (path: string) => `/api/v4/projects/${project.id}${path}`;
    const addHook = async (json: Record<string, unknown>) => {
      const r = await h.request("POST", api("/hooks"), { ...as(t.tokens.alice), json: { url: receiver.url, push_events: false, ...json } });
      expect(r.status).toBe(201);
    };
    const of = (event: string) => receiver.received.filter((r) => r.headers["x-gitlab-event"] === event).map((r: ReceivedHook) => r.body as Payload);
    const received = async (event: string, count: number) => {
      await until(() => of(event).length >= count, `${count} ${event} deliveries`);
      return of(event);
    };
    const put = async (path: string, json: Record<string, unknown>) => {
      const r = await h.request("PUT", api(path), { ...as(t.tokens.alice), json });
      expect(r.status).toBe(200);
      return r.json as Record<string, unknown>;
    };
    const newIssue = async (json: Record<string, unknown>) => {
      const r = await h.request("POST", api("/issues"), { ...as(t.tokens.alice), json });
      expect(r.status).toBe(201);
      return r.json as { iid: number; id: number; updated_at: string };
    };
    /** `main`, `feature` (one commit ahead) and `develop`, then a merge request from `feature` into `main`. */
    const newMergeRequest = async (json: Record<string, unknown> = {}) => {
      const commit = (body: Record<string, unknown>) => h.request("POST", api("/repository/commits"), { ...as(t.tokens.alice), json: body });
      expect((await commit({ branch: "main", commit_message: "Initial", actions: [{ action: "create", file_path: "README.md", content: "one\n" }] })).status).toBe(201);
      expect((await commit({ branch: "feature", start_branch: "main", commit_message: "Feature", actions: [{ action: "create", file_path: "feature.txt", content: "feature\n" }] })).status).toBe(201);
      expect((await h.request("POST", api("/repository/branches"), { ...as(t.tokens.alice), json: { branch: "develop", ref: "main" } })).status).toBe(201);
      const r = await h.request("POST", api("/merge_requests"), { ...as(t.tokens.alice), json: { source_branch: "feature", target_branch: "main", title: "Add feature", ...json } });
      expect(r.status).toBe(201);
      return r.json as { iid: number; id: number };
    };

    beforeAll(async () => {
      t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
      await h.serve(t.fk);
      const started = t.fk.workers.start({ pollIntervalMs: 20, recurring: false });
      if (started.isErr()) throw new Error(`workers did not start: ${started.error.code}`);
    });
    afterAll(async () => {
      await t.fk.workers.stop();
    });
    let seq = 0;
    beforeEach(async () => {
      seq += 1;
      receiver = await startHookReceiver();
      project = await t.createProject({ namespaceId: t.groups.grp.id, path: `changed-${seq}`, name: `Changed ${seq}`, visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Developer);
    });
    afterEach(async () => {
      await receiver.close();
    });

    it("an issue edited (title, labels, assignees) → Issue Hook `update` with changes of exactly title, updated_at, assignees and labels", async () => {
      await addHook({ issues_events: true });
      const issue = await newIssue({ title: "Broken", labels: "bug", assignee_ids: [t.users.alice.id] });
      // The instance's clock stands still unless moved: a second later, the edit moves updated_at.
      t.clock.advance(1_000);
      await put(`/issues/${issue.iid}`, { title: "Broken badly", labels: "bug,ui", assignee_ids: [t.users.bob.id] });
      const [opened, updated] = await received("Issue Hook", 2);
      expect(updated?.object_attributes).toMatchObject({ action: "update", title: "Broken badly" });
      expect(keys(updated)).toEqual(sorted(ISSUE_KEYS));
      const changes = updated?.changes ?? {};
      // The reference adds `updated_by_id` too: forgekit does not record who last updated an issue.
      expect(keys(changes)).toEqual(["assignees", "labels", "title", "updated_at"]);
      for (const change of Object.values(changes)) expect(keys(change)).toEqual(["current", "previous"]);
      expect(changes["title"]).toEqual({ previous: "Broken", current: "Broken badly" });
      expect(changes["updated_at"]).toEqual({ previous: opened?.object_attributes["updated_at"], current: updated?.object_attributes["updated_at"] });
      expect(changes["updated_at"]?.current).toMatch(ISO);
      const labels = changes["labels"] as { previous: Record<string, unknown>[]; current: Record<string, unknown>[] };
      expect(labels.previous.map((l) => l["title"])).toEqual(["bug"]);
      expect(labels.current.map((l) => l["title"])).toEqual(["bug", "ui"]);
      expect([...labels.previous, ...labels.current].map(keys)).toEqual(Array(3).fill(sorted(LABEL_KEYS)));
      expect(labels.current).toEqual(updated?.["labels"]);
      const assignees = changes["assignees"] as { previous: Record<string, unknown>[]; current: Record<string, unknown>[] };
      expect(assignees.previous.map((u) => u["username"])).toEqual(["alice"]);
      expect(assignees.current).toEqual([{ id: t.users.bob.id, name: t.users.bob.name, username: "bob", avatar_url: t.users.bob.avatarUrl, email: "[REDACTED]" }]);
      expect([...assignees.previous, ...assignees.current].map(keys)).toEqual([sorted(USER_KEYS), sorted(USER_KEYS)]);
    });

    it("an issue opened → changes of the columns its insert wrote, each from null", async () => {
      await addHook({ issues_events: true });
      const issue = await newIssue({ title: "Fresh", description: "It is" });
      const [opened] = await received("Issue Hook", 1);
      expect(opened?.object_attributes["action"]).toBe("open");
      expect(opened?.changes).toEqual({
        author_id: { previous: null, current: t.users.alice.id },
        created_at: { previous: null, current: opened?.object_attributes["created_at"] },
        description: { previous: null, current: "It is" },
        id: { previous: null, current: issue.id },
        iid: { previous: null, current: issue.iid },
        project_id: { previous: null, current: project.id },
        title: { previous: null, current: "Fresh" },
        updated_at: { previous: null, current: opened?.object_attributes["updated_at"] },
      });
    });

    it("an issue closed, then reopened → `close` and `reopen` with changes of state_id, closed_at and updated_at", async () => {
      await addHook({ issues_events: true });
      const issue = await newIssue({ title: "Closing" });
      t.clock.advance(1_000);
      await put(`/issues/${issue.iid}`, { state_event: "close" });
      t.clock.advance(1_000);
      await put(`/issues/${issue.iid}`, { state_event: "reopen" });
      const [opened, closed, reopened] = await received("Issue Hook", 3);
      expect([closed, reopened].map((p) => p?.object_attributes["action"])).toEqual(["close", "reopen"]);
      const closedAt = closed?.object_attributes["closed_at"];
      expect(closedAt).toMatch(ISO);
      expect(closed?.changes).toEqual({
        closed_at: { previous: null, current: closedAt },
        state_id: { previous: 1, current: 2 },
        updated_at: { previous: opened?.object_attributes["updated_at"], current: closed?.object_attributes["updated_at"] },
      });
      expect(reopened?.changes).toEqual({
        closed_at: { previous: closedAt, current: null },
        state_id: { previous: 2, current: 1 },
        updated_at: { previous: closed?.object_attributes["updated_at"], current: reopened?.object_attributes["updated_at"] },
      });
    });

    it("an issue closed together with an edit → `close` first (the state change only), then `update` with all the request changed", async () => {
      await addHook({ issues_events: true });
      const issue = await newIssue({ title: "Old" });
      t.clock.advance(1_000);
      await put(`/issues/${issue.iid}`, { state_event: "close", title: "New" });
      const [, closed, updated] = await received("Issue Hook", 3);
      expect(closed?.object_attributes).toMatchObject({ action: "close", state: "closed", title: "Old" });
      expect(keys(closed?.changes)).toEqual(["closed_at", "state_id", "updated_at"]);
      expect(updated?.object_attributes).toMatchObject({ action: "update", state: "closed", title: "New" });
      expect(keys(updated?.changes)).toEqual(["closed_at", "state_id", "title", "updated_at"]);
      expect(updated?.changes["title"]).toEqual({ previous: "Old", current: "New" });
    });

    it("an update that changes nothing → an Issue Hook `update` all the same, its changes only the touched updated_at", async () => {
      await addHook({ issues_events: true });
      const issue = await newIssue({ title: "Same" });
      t.clock.advance(1_000);
      await put(`/issues/${issue.iid}`, { title: "Same" });
      const [opened, updated] = await received("Issue Hook", 2);
      expect(updated?.object_attributes["action"]).toBe("update");
      expect(updated?.changes).toEqual({ updated_at: { previous: opened?.object_attributes["updated_at"], current: updated?.object_attributes["updated_at"] } });
    });

    it("a merge request edited (target branch, title, reviewers) → Merge Request Hook `update` with those changes; opened with none", async () => {
      await addHook({ merge_requests_events: true });
      const mr = await newMergeRequest({ reviewer_ids: [t.users.alice.id] });
      t.clock.advance(1_000);
      await put(`/merge_requests/${mr.iid}`, { target_branch: "develop", title: "Add the feature", reviewer_ids: [t.users.bob.id] });
      const [opened, updated] = await received("Merge Request Hook", 2);
      expect(opened?.object_attributes["action"]).toBe("open");
      expect(opened?.changes).toEqual({});
      expect(updated?.object_attributes).toMatchObject({ action: "update", target_branch: "develop", title: "Add the feature" });
      const changes = updated?.changes ?? {};
      expect(keys(changes)).toEqual(["reviewers", "target_branch", "title", "updated_at"]);
      expect(changes["target_branch"]).toEqual({ previous: "main", current: "develop" });
      expect(changes["title"]).toEqual({ previous: "Add feature", current: "Add the feature" });
      expect(changes["updated_at"]).toEqual({ previous: opened?.object_attributes["updated_at"], current: updated?.object_attributes["updated_at"] });
      const reviewers = changes["reviewers"] as { previous: Record<string, unknown>[]; current: Record<string, unknown>[] };
      expect(reviewers.previous.map((u) => u["username"])).toEqual(["alice"]);
      expect(reviewers.current).toEqual([{ id: t.users.bob.id, name: t.users.bob.name, username: "bob", avatar_url: t.users.bob.avatarUrl, email: "[REDACTED]" }]);
    });

    it("a merge request closed, reopened and merged → changes of state_id (2, 1, 3), and of the merge commit and merge user on the merge", async () => {
      await addHook({ merge_requests_events: true });
      const mr = await newMergeRequest();
      t.clock.advance(1_000);
      await put(`/merge_requests/${mr.iid}`, { state_event: "close" });
      t.clock.advance(1_000);
      await put(`/merge_requests/${mr.iid}`, { state_event: "reopen" });
      t.clock.advance(1_000);
      await put(`/merge_requests/${mr.iid}/merge`, {});
      const [, closed, reopened, merged] = await received("Merge Request Hook", 4);
      expect([closed, reopened, merged].map((p) => p?.object_attributes["action"])).toEqual(["close", "reopen", "merge"]);
      expect(keys(closed?.changes)).toEqual(["state_id", "updated_at"]);
      expect(closed?.changes["state_id"]).toEqual({ previous: 1, current: 2 });
      expect(reopened?.changes).toEqual({ state_id: { previous: 2, current: 1 }, updated_at: { previous: closed?.object_attributes["updated_at"], current: reopened?.object_attributes["updated_at"] } });
      expect(keys(merged?.changes)).toEqual(["merge_commit_sha", "merge_user_id", "state_id", "updated_at"]);
      expect(merged?.changes["state_id"]).toEqual({ previous: 1, current: 3 });
      expect(merged?.changes["merge_user_id"]).toEqual({ previous: null, current: t.users.alice.id });
      expect(merged?.changes["merge_commit_sha"]?.current).toMatch(/^[0-9a-f]{40}$/);
    });
  });
};
