/**
 * Issues over REST (spec "Issues"; reference `lib/api/issues.rb`, IssuesFinder, IssuePolicy): every
 * endpoint's status codes, bodies, filters, permissions, spam handling and events.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

const iids = (json: unknown) => (json as Json[]).map((i) => i["iid"]);

/** The issue endpoints. */
export const activityIssuesSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  const auth = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const post = (project: string | number, json: Json, token?: string, headers: Record<string, string> = {}) =>
    h.request("POST", `/api/v4/projects/${project}/issues`, { json, headers: { ...auth(token), ...headers } });
  const put = (project: string | number, iid: number, json: Json, token?: string) => h.request("PUT", `/api/v4/projects/${project}/issues/${iid}`, { json, headers: auth(token) });
  const get = (path: string, query: Record<string, string | string[]> = {}, token?: string) => h.request("GET", `/api/v4${path}`, { query, headers: auth(token) });

  describe("issues", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
    });

    describe("POST /projects/:id/issues", () => {
      it("creates an issue with the next iid: 201 and the reference's entity", async () => {
        const { t } = w;
        // A public project of its own in `grp`, so its first issue is #1 whatever ran before.
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "first-issue", name: "first-issue", visibility: "public", creatorId: t.users.alice.id });
        const r = await post(project.id, { title: "First", description: "- [x] one\n- [ ] two", labels: "bug,ui", assignee_ids: [t.users.bob.id] }, t.tokens.alice);
        expect(r.status).toBe(201);
        const body = r.json as Json;
        const api = `${t.baseUrl}/api/v4/projects/${project.id}`;
        expect(body).toMatchObject({
          iid: 1,
          project_id: project.id,
          title: "First",
          state: "opened",
          confidential: false,
          labels: ["bug", "ui"],
          milestone: null,
          type: "ISSUE",
          issue_type: "issue",
          user_notes_count: 0,
          closed_at: null,
          closed_by: null,
          web_url: `${t.baseUrl}/grp/first-issue/-/issues/1`,
          task_completion_status: { count: 2, completed_count: 1 },
          time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
          references: { short: "#1", relative: "#1", full: "grp/first-issue#1" },
          _links: { self: `${api}/issues/1`, notes: `${api}/issues/1/notes`, award_emoji: `${api}/issues/1/award_emoji`, project: api, closed_as_duplicate_of: null },
        });
        expect(body["author"]).toMatchObject({ id: t.users.alice.id, username: "alice" });
        expect((body["assignees"] as Json[]).map((u) => u["username"])).toEqual(["bob"]);
        expect((body["assignee"] as Json)["username"]).toBe("bob");
        expect((await post(project.id, { title: "Second" }, t.tokens.alice)).json).toMatchObject({ iid: 2 });
      });
      it("records an `opened` event in the project's feed", async () => {
        const { t } = w;
        const created = (await post(t.projects.publicProject.id, { title: "Evented" }, t.tokens.alice)).json as Json;
        const events = (await get(`/projects/${t.projects.publicProject.id}/events`, { target_type: "issue" }, t.tokens.alice)).json as Json[];
        expect(events.find((e) => e["target_id"] === created["id"])).toMatchObject({ action_name: "opened", target_type: "Issue", target_iid: created["iid"] });
      });
      it("a project addressed by its %2F-encoded path works like its id", async () => {
        expect((await post("grp%2Fpublic-project", { title: "By path" }, w.t.tokens.alice)).status).toBe(201);
      });
      it("a signed-in non-member may open issues in a public project; metadata from non-Reporters is ignored", async () => {
        const r = await post(w.t.projects.publicProject.id, { title: "From carol", labels: "x", confidential: true, assignee_ids: [w.carol.id] }, w.carol.token);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ labels: [], assignees: [], confidential: true });
      });
      it("a blank title is the nested validation message; a missing one is 400 `title not given`", async () => {
        const blank = await post(w.t.projects.publicProject.id, { title: " " }, w.t.tokens.alice);
        expect(blank.status).toBe(400);
        expect(blank.json).toEqual({ message: { title: ["can't be blank"] } });
        const missing = await post(w.t.projects.publicProject.id, {}, w.t.tokens.alice);
        expect(missing.status).toBe(400);
        expect(missing.json).toEqual({ message: '400 (Bad request) "title" not given' });
      });
      it("an invisible project is 404, anonymous is 401, a read_api token is 403", async () => {
        expect((await post(w.t.projects.hidden.id, { title: "x" }, w.carol.token)).status).toBe(404);
        expect((await post(w.t.projects.publicProject.id, { title: "x" })).status).toBe(401);
        expect((await post(w.t.projects.publicProject.id, { title: "x" }, w.readApi)).status).toBe(403);
      });
      it("spam: 400 with the message; CAPTCHA: 409 with the spam log and site key, and the retry with the headers succeeds", async () => {
        const spam = await post(w.t.projects.publicProject.id, { title: "Buy SPAM" }, w.t.tokens.alice);
        expect(spam.status).toBe(400);
        expect(spam.json).toEqual({ message: { error: "Your issue has been recognized as spam and has been discarded." } });
        const captcha = await post(w.t.projects.publicProject.id, { title: "CAPTCHA me" }, w.t.tokens.alice);
        expect(captcha.status).toBe(409);
        expect(captcha.json).toEqual({ needs_captcha_response: true, spam_log_id: 42, captcha_site_key: "site-key", message: { error: "Your issue has been recognized as spam." } });
        const retried = await post(w.t.projects.publicProject.id, { title: "CAPTCHA me" }, w.t.tokens.alice, { "x-service-captcha-response": "solved", "x-service-spam-log-id": "42" });
        expect(retried.status).toBe(201);
      });
      it("created_at is honoured for the project's owner", async () => {
        const r = await post(w.t.projects.publicProject.id, { title: "Old", created_at: "2020-01-02T03:04:05Z" }, w.t.tokens.alice);
        expect((r.json as Json)["created_at"]).toBe("2020-01-02T03:04:05.000Z");
      });
    });

    describe("GET /projects/:id/issues", () => {
      let pid: number;
      beforeAll(async () => {
        const { t } = w;
        const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "tracker", name: "tracker", visibility: "public", creatorId: t.users.alice.id });
        pid = project.id;
        const make = async (json: Json, token = t.tokens.alice) => {
          const r = await post(pid, json, token);
          t.clock.advance(60_000);
          return r.json as Json;
        };
        await make({ title: "Login broken", labels: "bug", assignee_ids: [t.users.bob.id] });
        await make({ title: "Secret", confidential: true });
        await make({ title: "Docs", labels: "docs" });
        await put(pid, 3, { state_event: "close" }, t.tokens.alice);
      });
      it("lists every issue newest first, with pagination headers", async () => {
        const r = await get(`/projects/${pid}/issues`, { per_page: "2" }, w.t.tokens.alice);
        expect(r.status).toBe(200);
        expect(iids(r.json)).toEqual([3, 2]);
        expect(r.headers["x-total"]).toBe("3");
        expect(r.headers["x-next-page"]).toBe("2");
      });
      it("filters: state, labels, assignee_id, author_id, search, confidential, iids[], created_after", async () => {
        const { t } = w;
        const list = async (query: Record<string, string | string[]>) => iids((await get(`/projects/${pid}/issues`, query, t.tokens.alice)).json);
        expect(await list({ state: "closed" })).toEqual([3]);
        expect(await list({ state: "opened" })).toEqual([2, 1]);
        expect(await list({ labels: "bug" })).toEqual([1]);
        expect(await list({ labels: "None" })).toEqual([2]);
        expect(await list({ assignee_id: String(t.users.bob.id) })).toEqual([1]);
        expect(await list({ assignee_id: "None" })).toEqual([3, 2]);
        expect(await list({ author_id: String(t.users.bob.id) })).toEqual([]);
        expect(await list({ search: "login" })).toEqual([1]);
        expect(await list({ confidential: "true" })).toEqual([2]);
        expect(await list({ "iids[]": ["1", "3"] })).toEqual([3, 1]);
        expect(await list({ order_by: "title", sort: "asc" })).toEqual([3, 1, 2]);
      });
      it("confidential issues are hidden from non-members and anonymous callers", async () => {
        expect(iids((await get(`/projects/${pid}/issues`, {}, w.carol.token)).json)).toEqual([3, 1]);
        expect(iids((await get(`/projects/${pid}/issues`)).json)).toEqual([3, 1]);
      });
      it("bad filter values are 400 naming the parameter", async () => {
        const r = await get(`/projects/${pid}/issues`, { order_by: "priority" }, w.t.tokens.alice);
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ error: "order_by does not have a valid value" });
        expect((await get(`/projects/${pid}/issues`, { assignee_id: "someone" }, w.t.tokens.alice)).json).toEqual({ error: "assignee_id is invalid" });
      });
      it("text no store can hold (a NUL) in a list-valued filter is 400 naming it, on every store (PostgreSQL refuses it in any comparison)", async () => {
        for (const path of [`/projects/${pid}/issues`, "/groups/grp/issues", "/issues"]) {
          for (const labels of ["\u0000", "bug,\u0000x"]) {
            const r = await get(path, { labels, scope: "all" }, w.t.tokens.alice);
            expect([path, labels, r.status, r.json]).toEqual([path, labels, 400, { error: "labels is invalid" }]);
          }
        }
        expect((await get(`/projects/${pid}/issues`, { assignee_id: "\u0000" }, w.t.tokens.alice)).json).toEqual({ error: "assignee_id is invalid" });
      });
      it("a private project is 404 for non-members", async () => {
        expect((await get(`/projects/${w.t.projects.privateProject.id}/issues`, {}, w.carol.token)).status).toBe(404);
      });
    });

    describe("GET /issues", () => {
      it("defaults to the caller's own issues; scope=assigned_to_me and scope=all", async () => {
        const { t } = w;
        // A caller of its own, who authors no issue and is assigned one of alice's.
        const viewer = await t.createUser({ username: "issue-viewer" });
        const token = (await t.createToken(viewer.id)).plaintext;
        const pid = t.projects.publicProject.id;
        const assignedIid = ((await post(pid, { title: "Viewer assigned crash", assignee_ids: [viewer.id] }, t.tokens.alice)).json as Json)["iid"] as number;
        const mine = (await get("/issues", {}, token)).json as Json[];
        expect(mine).toEqual([]);
        const assigned = (await get("/issues", { scope: "assigned_to_me" }, token)).json as Json[];
        expect(assigned.map((i) => (i["references"] as Json)["relative"])).toEqual([`grp/public-project#${assignedIid}`]);
        expect(assigned.every((i) => (i["assignees"] as Json[]).some((u) => u["id"] === viewer.id))).toBe(true);
        const all = (await get("/issues", { scope: "all", search: "Viewer assigned crash" }, token)).json as Json[];
        expect(all.map((i) => (i["references"] as Json)["relative"])).toEqual([`grp/public-project#${assignedIid}`]);
      });
      it("anonymous callers need scope=all (401 otherwise) and see only public, non-confidential issues", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const open = ((await post(pid, { title: "Anonymous may read this" }, t.tokens.alice)).json as Json)["iid"] as number;
        await post(pid, { title: "Anonymous may not read this", confidential: true }, t.tokens.alice);
        await post(t.projects.internalProject.id, { title: "Anonymous may not read this either" }, t.tokens.alice);
        expect((await get("/issues")).status).toBe(401);
        const r = await get("/issues", { scope: "all" });
        expect(r.status).toBe(200);
        const listed = r.json as Json[];
        expect(listed.length).toBeGreaterThan(0);
        expect(listed.every((i) => i["confidential"] === false)).toBe(true);
        const searched = (await get("/issues", { scope: "all", search: "Anonymous may" })).json as Json[];
        expect(searched.map((i) => (i["references"] as Json)["relative"])).toEqual([`grp/public-project#${open}`]);
      });
    });

    describe("GET /groups/:id/issues", () => {
      it("lists issues of the group's projects with group-relative references; invisible groups are 404", async () => {
        const iid = ((await post(w.t.projects.publicProject.id, { title: "Group-wide trouble" }, w.t.tokens.alice)).json as Json)["iid"] as number;
        const r = await get("/groups/grp/issues", { search: "Group-wide trouble" }, w.t.tokens.alice);
        expect(r.status).toBe(200);
        expect((r.json as Json[]).map((i) => (i["references"] as Json)["relative"])).toEqual([`public-project#${iid}`]);
        expect((await get(`/groups/${w.t.groups.secret.id}/issues`, {}, w.carol.token)).status).toBe(404);
      });
    });

    describe("GET /projects/:id/issues/:issue_iid", () => {
      it("shows one issue; an unknown iid is 404 Issue Not Found", async () => {
        const { t } = w;
        const iid = ((await post(t.projects.publicProject.id, { title: "Show me" }, t.tokens.alice)).json as Json)["iid"] as number;
        const r = await get(`/projects/${t.projects.publicProject.id}/issues/${iid}`, {}, t.tokens.alice);
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ iid, title: "Show me" });
        const missing = await get(`/projects/${t.projects.publicProject.id}/issues/999`, {}, t.tokens.alice);
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ message: "404 Issue Not Found" });
      });
      it("a confidential issue is 404 for a non-member, visible to its author", async () => {
        const { t } = w;
        const created = (await post(t.projects.publicProject.id, { title: "Carol's secret", confidential: true }, w.carol.token)).json as Json;
        const path = `/projects/${t.projects.publicProject.id}/issues/${String(created["iid"])}`;
        expect((await get(path, {}, w.carol.token)).status).toBe(200);
        expect((await get(path, {}, t.tokens.bob)).status).toBe(404);
        expect((await get(path, {}, t.tokens.alice)).status).toBe(200);
      });
    });

    describe("PUT /projects/:id/issues/:issue_iid", () => {
      it("state_event=close closes with closed_by and a `closed` event; reopen reopens (a `reopened` event, named `opened` as in the reference)", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const iid = ((await post(pid, { title: "To close" }, t.tokens.alice)).json as Json)["iid"] as number;
        const closed = await put(pid, iid, { state_event: "close" }, t.tokens.alice);
        expect(closed.status).toBe(200);
        expect(closed.json).toMatchObject({ state: "closed", closed_at: t.clock.now().toISOString() });
        expect(((closed.json as Json)["closed_by"] as Json)["username"]).toBe("alice");
        const reopened = await put(pid, iid, { state_event: "reopen" }, t.tokens.alice);
        expect(reopened.json).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
        const events = (await get(`/projects/${pid}/events`, { target_type: "issue" }, t.tokens.alice)).json as Json[];
        expect(events.filter((e) => e["target_iid"] === iid).map((e) => e["action_name"])).toEqual(["opened", "closed", "opened"]);
        const reopenedOnly = (await get(`/projects/${pid}/events`, { action: "reopened" }, t.tokens.alice)).json as Json[];
        expect(reopenedOnly.filter((e) => e["target_iid"] === iid)).toHaveLength(1);
      });
      it("changes title, labels (add/remove) and milestone; unknown milestones leave none", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const milestone = (await h.request("POST", `/api/v4/projects/${pid}/milestones`, { json: { title: "v1" }, headers: auth(t.tokens.alice) })).json as Json;
        const iid = ((await post(pid, { title: "Edit me", labels: "a" }, t.tokens.alice)).json as Json)["iid"] as number;
        const r = await put(pid, iid, { title: "Edited", add_labels: "b,c", remove_labels: "a", milestone_id: milestone["id"] }, t.tokens.alice);
        expect(r.json).toMatchObject({ title: "Edited", labels: ["b", "c"], milestone: { id: milestone["id"], title: "v1" } });
        expect(((await put(pid, iid, { labels: "z", milestone_id: 0 }, t.tokens.alice)).json as Json)).toMatchObject({ labels: ["z"], milestone: null });
      });
      it("due_date is stored and shown, changed, removed by an empty value; a date that does not exist is 400; a non-member author's due date is dropped", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const made = (await post(pid, { title: "Due", due_date: "2024-06-30" }, t.tokens.alice)).json as Json;
        expect(made).toMatchObject({ due_date: "2024-06-30" });
        const iid = made["iid"] as number;
        expect((await put(pid, iid, { due_date: "2025-01-02" }, t.tokens.alice)).json).toMatchObject({ due_date: "2025-01-02" });
        expect((await get(`/projects/${pid}/issues/${iid}`, {}, t.tokens.alice)).json).toMatchObject({ due_date: "2025-01-02" });
        expect((await put(pid, iid, { due_date: "" }, t.tokens.alice)).json).toMatchObject({ due_date: null });
        const bad = await put(pid, iid, { due_date: "2024-02-30" }, t.tokens.alice);
        expect(bad.status).toBe(400);
        expect((bad.json as Json)["error"]).toBe("due_date is invalid");
        expect((await post(pid, { title: "Not yours to date", due_date: "2024-06-30" }, w.carol.token)).json).toMatchObject({ due_date: null });
      });
      it("discussion_locked is stored (null until set, then true / false) with the reference's system notes; a non-member author's lock is dropped", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const made = (await post(pid, { title: "Heated" }, t.tokens.alice)).json as Json;
        expect(made).toMatchObject({ discussion_locked: null });
        const iid = made["iid"] as number;
        expect((await put(pid, iid, { discussion_locked: true }, t.tokens.alice)).json).toMatchObject({ discussion_locked: true });
        expect((await get(`/projects/${pid}/issues/${iid}`, {}, t.tokens.alice)).json).toMatchObject({ discussion_locked: true });
        expect((await put(pid, iid, { discussion_locked: false }, t.tokens.alice)).json).toMatchObject({ discussion_locked: false });
        const notes = (await get(`/projects/${pid}/issues/${iid}/notes`, { sort: "asc" }, t.tokens.alice)).json as Json[];
        expect(notes.map((n) => [n["body"], n["system"]])).toEqual([
          ["locked the discussion in this issue", true],
          ["unlocked the discussion in this issue", true],
        ]);
        const own = ((await post(pid, { title: "Lock mine" }, w.carol.token)).json as Json)["iid"] as number;
        expect((await put(pid, own, { discussion_locked: true, title: "Lock mine!" }, w.carol.token)).json).toMatchObject({ title: "Lock mine!", discussion_locked: null });
        expect((await put(pid, iid, { discussion_locked: "maybe" }, t.tokens.alice)).status).toBe(400);
      });
      it("no parameter at all is 400", async () => {
        const iid = ((await post(w.t.projects.publicProject.id, { title: "Untouched" }, w.t.tokens.alice)).json as Json)["iid"] as number;
        const r = await put(w.t.projects.publicProject.id, iid, {}, w.t.tokens.alice);
        expect(r.status).toBe(400);
        expect((r.json as Json)["error"]).toMatch(/are missing, at least one parameter must be provided$/);
      });
      it("a non-member who is not the author is 403; the author may close their own issue", async () => {
        const { t } = w;
        const alices = ((await post(t.projects.publicProject.id, { title: "Alice's" }, t.tokens.alice)).json as Json)["iid"] as number;
        expect((await put(t.projects.publicProject.id, alices, { title: "hijack" }, w.carol.token)).status).toBe(403);
        const own = ((await post(t.projects.publicProject.id, { title: "Mine" }, w.carol.token)).json as Json)["iid"] as number;
        expect((await put(t.projects.publicProject.id, own, { state_event: "close" }, w.carol.token)).json).toMatchObject({ state: "closed" });
      });
      it("making an issue confidential hides it and its events from non-members", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const iid = ((await post(pid, { title: "Soon secret" }, t.tokens.alice)).json as Json)["iid"] as number;
        expect((await put(pid, iid, { confidential: true }, t.tokens.alice)).json).toMatchObject({ confidential: true });
        expect((await get(`/projects/${pid}/issues/${iid}`, {}, w.carol.token)).status).toBe(404);
        const events = (await get(`/projects/${pid}/events`, { target_type: "issue" }, w.carol.token)).json as Json[];
        expect(events.some((e) => e["target_iid"] === iid)).toBe(false);
      });
      it("a spam title is refused on update too", async () => {
        const iid = ((await post(w.t.projects.publicProject.id, { title: "Clean so far" }, w.t.tokens.alice)).json as Json)["iid"] as number;
        expect((await put(w.t.projects.publicProject.id, iid, { title: "SPAM now" }, w.t.tokens.alice)).status).toBe(400);
      });
    });

    describe("DELETE /projects/:id/issues/:issue_iid", () => {
      it("owners delete (204, then 404); others get 403", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const iid = ((await post(pid, { title: "Doomed" }, w.carol.token)).json as Json)["iid"] as number;
        expect((await h.request("DELETE", `/api/v4/projects/${pid}/issues/${iid}`, { headers: auth(w.carol.token) })).status).toBe(403);
        const r = await h.request("DELETE", `/api/v4/projects/${pid}/issues/${iid}`, { headers: auth(t.tokens.alice) });
        expect(r.status).toBe(204);
        expect((await get(`/projects/${pid}/issues/${iid}`, {}, t.tokens.alice)).status).toBe(404);
      });
      it("sudo: an administrator acting as a user is that user", async () => {
        const { t } = w;
        const pid = t.projects.publicProject.id;
        const iid = ((await post(pid, { title: "Sudo target" }, t.tokens.alice)).json as Json)["iid"] as number;
        const r = await h.request("DELETE", `/api/v4/projects/${pid}/issues/${iid}`, { headers: { ...auth(t.tokens.root), sudo: "carol" } });
        expect(r.status).toBe(403);
      });
    });
  });
};
