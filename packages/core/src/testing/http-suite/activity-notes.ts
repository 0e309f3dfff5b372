/**
 * Notes over REST (reference `lib/api/notes.rb`, NotePolicy) on issues, merge requests and snippets:
 * status codes, bodies, ordering, permissions, read-only system notes, spam and `commented` events.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { must } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The note endpoints. */
export const activityNotesSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  let pid: number;
  const auth = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const bodies = (json: unknown) => (json as Json[]).map((n) => n["body"]);

  describe("notes", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
      const { t } = w;
      pid = t.projects.publicProject.id;
    });

    /** A new issue of alice's in the public project, for one test's notes: its iid and notes path. */
    const discussion = async (title = "Discuss") => {
      const { t } = w;
      const issue = await must(t.fk.issues.create({ projectId: pid, authorId: t.users.alice.id, title }));
      return { iid: issue.iid, notesPath: `/api/v4/projects/${pid}/issues/${issue.iid}/notes` };
    };
    const comment = async (body: string, token: string, path: string, headers: Record<string, string> = {}) => {
      const r = await h.request("POST", path, { json: { body }, headers: { ...auth(token), ...headers } });
      w.t.clock.advance(60_000);
      return r;
    };

    describe("POST /projects/:id/issues/:issue_iid/notes", () => {
      it("creates a note: 201 with the reference's entity and a `commented` event", async () => {
        const { t } = w;
        const { iid, notesPath } = await discussion();
        const r = await comment("First!", t.tokens.bob, notesPath);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ body: "First!", system: false, noteable_type: "Issue", noteable_iid: iid, project_id: pid, type: null, attachment: null, resolvable: false, internal: false, confidential: false });
        expect((r.json as Json)["author"]).toMatchObject({ username: "bob" });
        const events = (await h.request("GET", `/api/v4/projects/${pid}/events`, { query: { action: "commented" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events[0]).toMatchObject({ action_name: "commented on", target_type: "Note", target_id: (r.json as Json)["id"] });
      });
      it("a blank body is the nested validation message; a missing one is `body not given`", async () => {
        const { notesPath } = await discussion();
        const blank = await comment(" ", w.t.tokens.bob, notesPath);
        expect(blank.status).toBe(400);
        expect(blank.json).toEqual({ message: { note: ["can't be blank"] } });
        const missing = await h.request("POST", notesPath, { json: {}, headers: auth(w.t.tokens.bob) });
        expect(missing.json).toEqual({ message: '400 (Bad request) "body" not given' });
      });
      it("spam is refused; an unknown issue is 404 Issue Not Found; read_api is 403", async () => {
        const { notesPath } = await discussion();
        expect((await comment("SPAM SPAM", w.t.tokens.bob, notesPath)).status).toBe(400);
        const missing = await comment("hi", w.t.tokens.bob, `/api/v4/projects/${pid}/issues/99/notes`);
        expect(missing.status).toBe(404);
        expect(missing.json).toEqual({ message: "404 Issue Not Found" });
        expect((await comment("hi", w.readApi, notesPath)).status).toBe(403);
      });
      it("on a locked discussion a non-member is 403 while a member still comments (reference `locked & ~is_project_member`)", async () => {
        const { t } = w;
        const iid = (await must(t.fk.issues.create({ projectId: pid, authorId: t.users.alice.id, title: "Locked" }))).iid;
        const path = `/api/v4/projects/${pid}/issues/${iid}/notes`;
        expect((await comment("before", w.carol.token, path)).status).toBe(201);
        await must(t.fk.issues.update(pid, iid, t.users.alice.id, { discussionLocked: true }));
        const refused = await comment("after", w.carol.token, path);
        expect(refused.status).toBe(403);
        expect(refused.json).toEqual({ message: "403 Forbidden" });
        expect((await comment("members may", t.tokens.alice, path)).status).toBe(201);
        await must(t.fk.issues.update(pid, iid, t.users.alice.id, { discussionLocked: false }));
        expect((await comment("unlocked", w.carol.token, path)).status).toBe(201);
      });
    });

    describe("GET /projects/:id/issues/:issue_iid/notes", () => {
      it("lists newest first by default, sort=asc oldest first, with system notes and pagination headers", async () => {
        const { t } = w;
        const { iid, notesPath } = await discussion();
        await comment("First!", t.tokens.bob, notesPath);
        await comment("Second", t.tokens.alice, notesPath);
        await h.request("PUT", `/api/v4/projects/${pid}/issues/${iid}`, { json: { state_event: "close" }, headers: auth(t.tokens.alice) });
        const r = await h.request("GET", notesPath, { headers: auth(t.tokens.alice) });
        expect(r.status).toBe(200);
        expect(bodies(r.json)).toEqual(["closed", "Second", "First!"]);
        expect((r.json as Json[])[0]).toMatchObject({ system: true });
        expect(r.headers["x-total"]).toBe("3");
        const asc = await h.request("GET", notesPath, { query: { sort: "asc", per_page: "1" }, headers: auth(t.tokens.alice) });
        expect(bodies(asc.json)).toEqual(["First!"]);
        expect(asc.headers["x-next-page"]).toBe("2");
      });
      it("notes of a confidential issue are 404 for those who cannot see the issue", async () => {
        const { t } = w;
        const issue = await must(t.fk.issues.create({ projectId: pid, authorId: t.users.alice.id, title: "Hush", confidential: true }));
        const path = `/api/v4/projects/${pid}/issues/${issue.iid}/notes`;
        expect((await h.request("GET", path, { headers: auth(w.carol.token) })).status).toBe(404);
        expect((await comment("peek", w.carol.token, path)).status).toBe(404);
        expect((await h.request("GET", path, { headers: auth(t.tokens.alice) })).status).toBe(200);
      });
    });

    describe("GET /projects/:id/issues/:issue_iid/notes/:note_id", () => {
      it("shows one note; a note of another noteable is 404 Note Not Found", async () => {
        const { t } = w;
        const { notesPath } = await discussion();
        const created = (await comment("Show me", t.tokens.bob, notesPath)).json as Json;
        const r = await h.request("GET", `${notesPath}/${String(created["id"])}`, { headers: auth(t.tokens.bob) });
        expect(r.json).toMatchObject({ id: created["id"], body: "Show me" });
        const other = await must(t.fk.issues.create({ projectId: pid, authorId: t.users.alice.id, title: "Other" }));
        const wrong = await h.request("GET", `/api/v4/projects/${pid}/issues/${other.iid}/notes/${String(created["id"])}`, { headers: auth(t.tokens.bob) });
        expect(wrong.status).toBe(404);
        expect(wrong.json).toEqual({ message: "404 Note Not Found" });
      });
    });

    describe("PUT /projects/:id/issues/:issue_iid/notes/:note_id", () => {
      it("the author edits the body; others get 403; system notes are read-only (403)", async () => {
        const { t } = w;
        const { iid, notesPath } = await discussion();
        const created = (await comment("Typo", t.tokens.bob, notesPath)).json as Json;
        const path = `${notesPath}/${String(created["id"])}`;
        const edited = await h.request("PUT", path, { json: { body: "Fixed" }, headers: auth(t.tokens.bob) });
        expect(edited.status).toBe(200);
        expect(edited.json).toMatchObject({ body: "Fixed", updated_at: t.clock.now().toISOString() });
        expect((await h.request("PUT", path, { json: { body: "Mine now" }, headers: auth(w.carol.token) })).status).toBe(403);
        // Closing the issue writes the system note `closed`.
        expect((await h.request("PUT", `/api/v4/projects/${pid}/issues/${iid}`, { json: { state_event: "close" }, headers: auth(t.tokens.alice) })).status).toBe(200);
        const system = ((await h.request("GET", notesPath, { headers: auth(t.tokens.alice) })).json as Json[]).find((n) => n["system"] === true)!;
        expect((await h.request("PUT", `${notesPath}/${String(system["id"])}`, { json: { body: "x" }, headers: auth(t.tokens.root) })).status).toBe(403);
      });
    });

    describe("DELETE /projects/:id/issues/:issue_iid/notes/:note_id", () => {
      it("the author or a Maintainer deletes (204); others get 403", async () => {
        const { t } = w;
        const { notesPath } = await discussion();
        const created = (await comment("Delete me", w.carol.token, notesPath)).json as Json;
        const path = `${notesPath}/${String(created["id"])}`;
        expect((await h.request("DELETE", path, { headers: auth(t.tokens.bob) })).status).toBe(403);
        expect((await h.request("DELETE", path, { headers: auth(t.tokens.alice) })).status).toBe(204);
        expect((await h.request("GET", path, { headers: auth(t.tokens.alice) })).status).toBe(404);
      });
    });

    describe("/projects/:id/merge_requests/:merge_request_iid/notes", () => {
      it("comments on a merge request and lists its notes", async () => {
        const { t } = w;
        const mr = await must(t.fk.mergeRequests.create({ projectId: pid, authorId: t.users.alice.id, title: "MR", sourceBranch: "feature", targetBranch: "main" }));
        const path = `/api/v4/projects/${pid}/merge_requests/${mr.iid}/notes`;
        const r = await comment("LGTM", t.tokens.bob, path);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ noteable_type: "MergeRequest", noteable_iid: mr.iid, noteable_id: mr.id });
        expect(bodies((await h.request("GET", path, { headers: auth(t.tokens.bob) })).json)).toEqual(["LGTM"]);
        expect((await h.request("GET", `/api/v4/projects/${pid}/merge_requests/999/notes`, { headers: auth(t.tokens.bob) })).json).toEqual({ message: "404 Merge Request Not Found" });
      });
    });

    describe("/projects/:id/snippets/:snippet_id/notes", () => {
      it("comments on a project snippet; a private snippet's notes are 404 for non-members", async () => {
        const { t } = w;
        const open = await must(t.fk.snippets.create({ projectId: pid, authorId: t.users.alice.id, title: "s", fileName: "a.txt", content: "x", visibility: "public" }));
        const path = `/api/v4/projects/${pid}/snippets/${open.id}/notes`;
        const r = await comment("Nice", w.carol.token, path);
        expect(r.status).toBe(201);
        expect(r.json).toMatchObject({ noteable_type: "Snippet", noteable_id: open.id, noteable_iid: null });
        const secret = await must(t.fk.snippets.create({ projectId: pid, authorId: t.users.alice.id, title: "p", fileName: "b.txt", content: "y", visibility: "private" }));
        expect((await h.request("GET", `/api/v4/projects/${pid}/snippets/${secret.id}/notes`, { headers: auth(w.carol.token) })).json).toEqual({ message: "404 Snippet Not Found" });
        expect((await h.request("GET", `/api/v4/projects/${pid}/snippets/${secret.id}/notes`, { headers: auth(t.tokens.alice) })).status).toBe(200);
      });
    });
  });
};
