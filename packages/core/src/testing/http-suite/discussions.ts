/**
 * Discussions over REST (reference `lib/api/discussions.rb`, `Entities::Discussion`, `DiffNote`):
 * every note is a discussion (plain notes individual ones), threads and replies on issues and merge
 * requests, resolution on merge requests, and diff notes whose position must name a line of the
 * merge request's diff — against a real repository.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite, RequestOptions } from "../http-harness.js";

type Json = Record<string, unknown>;
const HEX40 = /^[0-9a-f]{40}$/;
const LINE_CODE_REFUSED = `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}`;

export const discussionsSuite: HttpSuite = (h: HttpHarness) => {
  describe("discussions", () => {
    let t: TestForgekit;
    let project: Project;
    let carol: { user: User; token: string };
    let dave: { user: User; token: string };
    let refs: { base_sha: string; start_sha: string; head_sha: string };
    const api = () => `/api/v4/projects/${project.id}`;
    const as = (token: string | undefined, options: RequestOptions = {}): RequestOptions => ({ ...options, headers: { ...(options.headers ?? {}), ...(token === undefined ? {} : { "private-token": token }) } });
    const json = <T = Json>(r: { json: unknown }) => r.json as T;
    const newIssue = async () => (await must(t.fk.issues.create({ projectId: project.id, authorId: t.users.alice.id, title: "Talk" }))).iid;
    const newMr = async () => {
      const branch = `feature-${Math.random().toString(36).slice(2, 8)}`;
      const commit = await h.request("POST", `${api()}/repository/commits`, as(t.tokens.alice, { json: { branch, start_branch: "main", commit_message: "change", actions: [{ action: "update", file_path: "README.md", content: "one\nTWO\nthree\nfour\n" }] } }));
      expect(commit.status).toBe(201);
      const r = await h.request("POST", `${api()}/merge_requests`, as(t.tokens.alice, { json: { source_branch: branch, target_branch: "main", title: "Change" } }));
      expect(r.status).toBe(201);
      refs = json<{ diff_refs: typeof refs }>(r).diff_refs;
      return json<{ iid: number }>(r).iid;
    };
    const start = (path: string, token: string, body: Json) => h.request("POST", `${path}/discussions`, as(token, { json: body }));
    const position = (extra: Json) => ({ ...refs, position_type: "text", old_path: "README.md", new_path: "README.md", ...extra });

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      project = await t.createProject({ namespaceId: t.users.alice.namespaceId ?? -1, path: "talk", name: "talk", visibility: "private", creatorId: t.users.alice.id });
      await t.addMember({ project }, t.users.bob, AccessLevel.Reporter);
      const make = async (username: string, level: number) => {
        const user = await t.createUser({ username });
        await t.addMember({ project }, user, level);
        return { user, token: (await t.createToken(user.id)).plaintext };
      };
      carol = await make("carol", AccessLevel.Developer);
      dave = await make("dave", AccessLevel.Maintainer);
      const r = await h.request("POST", `${api()}/repository/commits`, as(t.tokens.alice, { json: { branch: "main", commit_message: "readme", actions: [{ action: "create", file_path: "README.md", content: "one\ntwo\nthree\n" }] } }));
      expect(r.status).toBe(201);
    });

    describe("POST /projects/:id/issues/:issue_iid/discussions", () => {
      it("on a locked discussion a non-member is 403 (new thread and reply) while a member still starts one", async () => {
        const pid = t.projects.publicProject.id;
        const iid = (await must(t.fk.issues.create({ projectId: pid, authorId: t.users.alice.id, title: "Locked talk" }))).iid;
        const path = `/api/v4/projects/${pid}/issues/${iid}`;
        const outsider = await t.createUser({ username: "outsider" });
        const token = (await t.createToken(outsider.id)).plaintext;
        const open = json<{ id: string }>(await start(path, token, { body: "early" }));
        await must(t.fk.issues.update(pid, iid, t.users.alice.id, { discussionLocked: true }));
        const refused = await start(path, token, { body: "late" });
        expect(refused.status).toBe(403);
        expect(refused.json).toEqual({ message: "403 Forbidden" });
        expect((await h.request("POST", `${path}/discussions/${open.id}/notes`, as(token, { json: { body: "reply" } }))).status).toBe(403);
        expect((await start(path, t.tokens.alice, { body: "owner" })).status).toBe(201);
      });
      it("201: a discussion (40 hex id, not individual) of one DiscussionNote, not resolvable on an issue; it records `commented`", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        const r = await start(path, t.tokens.bob, { body: "Thread" });
        expect(r.status).toBe(201);
        const d = json<{ id: string; individual_note: boolean; notes: Json[] }>(r);
        expect(d.id).toMatch(HEX40);
        expect(d.individual_note).toBe(false);
        expect(d.notes).toHaveLength(1);
        expect(d.notes[0]).toMatchObject({ type: "DiscussionNote", body: "Thread", system: false, noteable_type: "Issue", resolvable: false, author: { username: "bob" } });
        expect(d.notes[0]).not.toHaveProperty("resolved");
        expect(d.notes[0]).not.toHaveProperty("position");
        const events = json<Json[]>(await h.request("GET", `${api()}/events`, as(t.tokens.alice, { query: { action: "commented" } })));
        // Events are recorded as for every note (target type `Note`).
        expect(events[0]).toMatchObject({ target_type: "Note", target_id: d.notes[0]?.["id"] });
      });
      it("created_at is kept for the project's owner and administrators, ignored for others", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        const when = "2020-01-02T03:04:05.000Z";
        const owner = json<{ notes: Json[] }>(await start(path, t.tokens.alice, { body: "dated", created_at: when }));
        expect(owner.notes[0]).toMatchObject({ created_at: when, updated_at: when });
        const admin = json<{ notes: Json[] }>(await start(path, t.tokens.root, { body: "dated", created_at: when }));
        expect(admin.notes[0]?.["created_at"]).toBe(when);
        const other = json<{ notes: Json[] }>(await start(path, t.tokens.bob, { body: "dated", created_at: when }));
        expect(other.notes[0]?.["created_at"]).not.toBe(when);
        expect((await start(path, t.tokens.alice, { body: "x", created_at: "yesterday" })).json).toEqual({ error: "created_at is invalid" });
        // Every store holds any four-digit year (MySQL's datetime starts at 1000).
        const ancient = await start(path, t.tokens.alice, { body: "old", created_at: "0100-01-01T00:00:00Z" });
        expect(ancient.status).toBe(201);
        expect(json<{ notes: Json[] }>(ancient).notes[0]?.["created_at"]).toBe("0100-01-01T00:00:00.000Z");
      });
      it("401 without a user (even to read); 404 for an unknown issue or a project the user cannot see; a missing or blank body is refused", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        expect((await h.request("GET", `${path}/discussions`)).status).toBe(401);
        expect((await h.request("POST", `${path}/discussions`, { json: { body: "x" } })).status).toBe(401);
        expect((await start(`${api()}/issues/999`, t.tokens.bob, { body: "x" })).json).toEqual({ message: "404 Issue Not Found" });
        const stranger = await t.createUser({ username: `stranger${Math.random().toString(36).slice(2, 6)}` });
        const token = (await t.createToken(stranger.id)).plaintext;
        expect((await start(path, token, { body: "x" })).json).toEqual({ message: "404 Project Not Found" });
        expect((await start(path, t.tokens.bob, {})).json).toEqual({ message: '400 (Bad request) "body" not given' });
        expect((await start(path, t.tokens.bob, { body: " " })).json).toEqual({ message: { note: ["can't be blank"] } });
      });
    });

    describe("GET /projects/:id/issues/:issue_iid/discussions", () => {
      it("every note is a discussion: a plain note is an individual one with its own 40 hex id; system notes too; paginated by discussion", async () => {
        const iid = await newIssue();
        const path = `${api()}/issues/${iid}`;
        const plain = json<Json>(await h.request("POST", `${path}/notes`, as(t.tokens.bob, { json: { body: "plain" } })));
        const thread = json<{ id: string }>(await start(path, t.tokens.bob, { body: "thread" }));
        await h.request("POST", `${path}/discussions/${thread.id}/notes`, as(t.tokens.alice, { json: { body: "reply" } }));
        await h.request("PUT", path, as(t.tokens.alice, { json: { state_event: "close" } }));
        const r = await h.request("GET", `${path}/discussions`, as(t.tokens.bob));
        expect(r.status).toBe(200);
        const list = json<{ id: string; individual_note: boolean; notes: Json[] }[]>(r);
        expect(list.map((d) => [d.individual_note, d.notes.map((n) => [n["type"], n["body"]])])).toEqual([
          [true, [[null, "plain"]]],
          [false, [["DiscussionNote", "thread"], ["DiscussionNote", "reply"]]],
          [true, [[null, "closed"]]],
        ]);
        for (const d of list) expect(d.id).toMatch(HEX40);
        expect(list[0]?.notes[0]?.["id"]).toBe(plain["id"]);
        expect(r.headers["x-total"]).toBe("3");
        const second = await h.request("GET", `${path}/discussions`, as(t.tokens.bob, { query: { per_page: "1", page: "2" } }));
        expect(json<{ id: string }[]>(second).map((d) => d.id)).toEqual([thread.id]);
        expect(second.headers["x-next-page"]).toBe("3");
      });
      it("GET …/discussions/:discussion_id shows one; an id no note of this issue has is 404 Discussion Not Found", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        const thread = json<{ id: string }>(await start(path, t.tokens.bob, { body: "thread" }));
        const shown = await h.request("GET", `${path}/discussions/${thread.id}`, as(t.tokens.bob));
        expect(json(shown)).toMatchObject({ id: thread.id, individual_note: false, notes: [{ body: "thread" }] });
        const elsewhere = `${api()}/issues/${await newIssue()}`;
        expect((await h.request("GET", `${elsewhere}/discussions/${thread.id}`, as(t.tokens.bob))).json).toEqual({ message: "404 Discussion Not Found" });
        expect((await h.request("GET", `${path}/discussions/nope`, as(t.tokens.bob))).status).toBe(404);
        expect((await h.request("GET", `${path}/discussions/${thread.id}/notes`, as(t.tokens.bob))).json).toMatchObject([{ body: "thread" }]);
      });
    });

    describe("POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes", () => {
      it("a reply joins the discussion; replying to an individual note makes it a DiscussionNote; a system note cannot be replied to", async () => {
        const iid = await newIssue();
        const path = `${api()}/issues/${iid}`;
        const plain = json<Json>(await h.request("POST", `${path}/notes`, as(t.tokens.bob, { json: { body: "plain" } })));
        const [individual] = json<{ id: string }[]>(await h.request("GET", `${path}/discussions`, as(t.tokens.bob)));
        const reply = await h.request("POST", `${path}/discussions/${individual?.id}/notes`, as(t.tokens.alice, { json: { body: "answer" } }));
        expect(reply.status).toBe(201);
        expect(json(reply)).toMatchObject({ type: "DiscussionNote", body: "answer", noteable_iid: iid });
        const shown = json<{ individual_note: boolean; notes: Json[] }>(await h.request("GET", `${path}/discussions/${individual?.id}`, as(t.tokens.bob)));
        expect(shown.individual_note).toBe(false);
        expect(shown.notes.map((n) => [n["id"], n["type"]])).toEqual([
          [plain["id"], "DiscussionNote"],
          [json<Json>(reply)["id"], "DiscussionNote"],
        ]);
        await h.request("PUT", path, as(t.tokens.alice, { json: { state_event: "close" } }));
        const system = json<{ id: string; notes: Json[] }[]>(await h.request("GET", `${path}/discussions`, as(t.tokens.bob))).find((d) => d.notes[0]?.["system"] === true);
        const refused = await h.request("POST", `${path}/discussions/${system?.id}/notes`, as(t.tokens.bob, { json: { body: "no" } }));
        expect(refused.status).toBe(400);
        expect(refused.json).toEqual({ message: "400 Bad request - Discussion can not be replied to." });
        expect((await h.request("POST", `${path}/discussions/${"0".repeat(40)}/notes`, as(t.tokens.bob, { json: { body: "x" } }))).json).toEqual({ message: "404 Discussion Not Found" });
      });
    });

    describe("PUT and DELETE /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id", () => {
      it("only the author edits the body; the author or a Maintainer deletes; body and resolved are exactly one", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        const d = json<{ id: string; notes: Json[] }>(await start(path, t.tokens.bob, { body: "mine" }));
        const note = `${path}/discussions/${d.id}/notes/${String(d.notes[0]?.["id"])}`;
        expect((await h.request("PUT", note, as(t.tokens.alice, { json: { body: "theirs" } }))).status).toBe(403);
        const edited = await h.request("PUT", note, as(t.tokens.bob, { json: { body: "edited" } }));
        expect(edited.status).toBe(200);
        expect(json(edited)).toMatchObject({ body: "edited", type: "DiscussionNote" });
        expect((await h.request("PUT", note, as(t.tokens.bob, { json: { body: "x", resolved: true } }))).json).toEqual({ error: "body, resolved are mutually exclusive" });
        expect((await h.request("PUT", note, as(t.tokens.bob, { json: {} }))).json).toEqual({ error: "body, resolved are missing, exactly one parameter must be provided" });
        expect((await h.request("PUT", note, as(t.tokens.alice, { json: { resolved: true } }))).json).toEqual({ message: "400 Bad request - Note is not resolvable" });
        expect((await h.request("DELETE", note, as(carol.token))).status).toBe(403);
        expect((await h.request("DELETE", note, as(dave.token))).status).toBe(204);
        expect((await h.request("GET", `${path}/discussions/${d.id}`, as(t.tokens.bob))).status).toBe(404);
      });
    });

    describe("resolvable discussions on merge requests", () => {
      it("a merge request's discussion notes are resolvable and unresolved; individual notes are not resolvable", async () => {
        const path = `${api()}/merge_requests/${await newMr()}`;
        const d = json<{ notes: Json[] }>(await start(path, t.tokens.bob, { body: "please fix" }));
        expect(d.notes[0]).toMatchObject({ type: "DiscussionNote", resolvable: true, resolved: false, resolved_by: null, resolved_at: null });
        const plain = json<Json>(await h.request("POST", `${path}/notes`, as(t.tokens.bob, { json: { body: "plain" } })));
        expect(plain).toMatchObject({ type: null, resolvable: false });
        expect(plain).not.toHaveProperty("resolved");
      });
      it("PUT …/discussions/:discussion_id resolved=true resolves every note (resolved_by, resolved_at); false unresolves; the MR author and Developers may, a Reporter may not", async () => {
        const path = `${api()}/merge_requests/${await newMr()}`;
        const d = json<{ id: string }>(await start(path, t.tokens.bob, { body: "please fix" }));
        await h.request("POST", `${path}/discussions/${d.id}/notes`, as(carol.token, { json: { body: "+1" } }));
        expect((await h.request("PUT", `${path}/discussions/${d.id}`, as(t.tokens.bob, { json: { resolved: true } }))).status).toBe(403);
        t.clock.advance(60_000);
        const resolved = await h.request("PUT", `${path}/discussions/${d.id}`, as(carol.token, { json: { resolved: true } }));
        expect(resolved.status).toBe(200);
        const notes = json<{ notes: Json[] }>(resolved).notes;
        expect(notes).toHaveLength(2);
        for (const n of notes) expect(n).toMatchObject({ resolvable: true, resolved: true, resolved_by: { username: "carol" }, resolved_at: t.clock.now().toISOString() });
        const again = await h.request("PUT", `${path}/discussions/${d.id}`, as(t.tokens.alice, { json: { resolved: false } }));
        for (const n of json<{ notes: Json[] }>(again).notes) expect(n).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
        expect((await h.request("PUT", `${path}/discussions/${d.id}`, as(carol.token, { json: {} }))).json).toEqual({ message: '400 (Bad request) "resolved" not given' });
        expect((await h.request("PUT", `${path}/discussions/${"0".repeat(40)}`, as(carol.token, { json: { resolved: true } }))).json).toEqual({ message: "404 Discussion Not Found" });
      });
      it("PUT …/notes/:note_id resolved resolves one note; an individual note's discussion cannot be resolved (403)", async () => {
        const path = `${api()}/merge_requests/${await newMr()}`;
        const d = json<{ id: string; notes: Json[] }>(await start(path, t.tokens.bob, { body: "fix" }));
        const reply = json<Json>(await h.request("POST", `${path}/discussions/${d.id}/notes`, as(t.tokens.bob, { json: { body: "also" } })));
        const one = await h.request("PUT", `${path}/discussions/${d.id}/notes/${String(reply["id"])}`, as(t.tokens.alice, { json: { resolved: true } }));
        expect(json(one)).toMatchObject({ id: reply["id"], resolved: true, resolved_by: { username: "alice" } });
        const shown = json<{ notes: Json[] }>(await h.request("GET", `${path}/discussions/${d.id}`, as(t.tokens.bob)));
        expect(shown.notes.map((n) => n["resolved"])).toEqual([false, true]);
        await h.request("POST", `${path}/notes`, as(t.tokens.bob, { json: { body: "plain" } }));
        const individual = json<{ id: string; individual_note: boolean }[]>(await h.request("GET", `${path}/discussions`, as(t.tokens.bob))).find((x) => x.individual_note);
        expect((await h.request("PUT", `${path}/discussions/${individual?.id}`, as(t.tokens.alice, { json: { resolved: true } }))).status).toBe(403);
      });
      it("issue discussions have no resolve route (405)", async () => {
        const path = `${api()}/issues/${await newIssue()}`;
        const d = json<{ id: string }>(await start(path, t.tokens.bob, { body: "thread" }));
        expect((await h.request("PUT", `${path}/discussions/${d.id}`, as(t.tokens.alice, { json: { resolved: true } }))).status).toBe(405);
      });
    });

    describe("diff notes: POST /projects/:id/merge_requests/:merge_request_iid/discussions with position", () => {
      it("201 DiffNote on an added line (new_line), a removed line (old_line) and an unchanged line (both), with the position as the reference shows it", async () => {
        const iid = await newMr();
        const path = `${api()}/merge_requests/${iid}`;
        for (const lines of [{ new_line: 2 }, { old_line: 2 }, { old_line: 3, new_line: 3 }, { new_line: 4 }]) {
          const r = await start(path, t.tokens.bob, { body: "on the line", position: position(lines) });
          expect(r.status).toBe(201);
          const d = json<{ individual_note: boolean; notes: Json[] }>(r);
          expect(d.individual_note).toBe(false);
          expect(d.notes[0]).toMatchObject({
            type: "DiffNote",
            commit_id: null,
            resolvable: true,
            resolved: false,
            position: { ...refs, position_type: "text", old_path: "README.md", new_path: "README.md", old_line: lines.old_line ?? null, new_line: lines.new_line ?? null, line_range: null },
          });
        }
        const notes = json<Json[]>(await h.request("GET", `${path}/notes`, as(t.tokens.bob)));
        expect(notes.every((n) => n["type"] === "DiffNote" && typeof n["position"] === "object")).toBe(true);
      });
      it("a multi-line note keeps its line_range; a reply to a diff discussion is a diff note at the same position", async () => {
        const path = `${api()}/merge_requests/${await newMr()}`;
        const range = { start: { line_code: "a_2_2", type: "new", new_line: 2 }, end: { line_code: "a_3_4", type: "new", new_line: 4 } };
        const d = json<{ id: string; notes: Json[] }>(await start(path, t.tokens.bob, { body: "range", position: position({ new_line: 4, line_range: range }) }));
        expect((d.notes[0]?.["position"] as Json)["line_range"]).toEqual({ start: { line_code: "a_2_2", type: "new", old_line: null, new_line: 2 }, end: { line_code: "a_3_4", type: "new", old_line: null, new_line: 4 } });
        const reply = json<Json>(await h.request("POST", `${path}/discussions/${d.id}/notes`, as(t.tokens.alice, { json: { body: "agreed" } })));
        expect(reply).toMatchObject({ type: "DiffNote", position: d.notes[0]?.["position"] });
      });
      it("a position naming no line of the diff is 400 with the reference's line_code message; an incomplete one adds :position", async () => {
        const path = `${api()}/merge_requests/${await newMr()}`;
        for (const outside of [{ new_line: 3 }, { new_line: 99 }, { old_line: 1 }, { new_line: 2, new_path: "OTHER.md", old_path: "OTHER.md" }, { new_line: 2, head_sha: "f".repeat(40) }, { new_line: 2, base_sha: "not a sha" }]) {
          const r = await start(path, t.tokens.bob, { body: "x", position: position(outside) });
          expect(r.status).toBe(400);
          expect(r.json).toEqual({ message: LINE_CODE_REFUSED });
        }
        const incomplete = await start(path, t.tokens.bob, { body: "x", position: position({}) });
        expect(incomplete.json).toEqual({ message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}` });
        expect((await start(path, t.tokens.bob, { body: "x", position: { ...position({ new_line: 2 }), base_sha: undefined } })).json).toEqual({ message: '400 (Bad request) "position[base_sha]" not given' });
        expect((await start(path, t.tokens.bob, { body: "x", position: position({ new_line: 2, position_type: "map" }) })).json).toEqual({ error: "position[position_type] does not have a valid value" });
        expect((await start(path, t.tokens.bob, { body: "x", position: "README.md" })).json).toEqual({ error: "position is invalid" });
        expect(json<unknown[]>(await h.request("GET", `${path}/discussions`, as(t.tokens.bob)))).toEqual([]);
      });
    });
  });
};
