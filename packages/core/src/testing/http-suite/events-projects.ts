/** `GET /projects/:id/events` (spec "Events", Event entity; reference §2). */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createEventsWorld, type EventsWorld } from "./events-fixture.js";

type Json = Record<string, unknown>;
const list = (json: unknown) => json as Json[];

/** `GET /projects/:id/events`. */
export const projectEventsSuite: HttpSuite = (h) => {
  describe("GET /projects/:id/events", () => {
    let w: EventsWorld;
    let path: string;
    const get = (id: string, token?: string, query: Record<string, string> = {}) =>
      h.request("GET", `/api/v4/projects/${id}/events`, { headers: token === undefined ? {} : { "private-token": token }, query });

    beforeAll(async () => {
      w = await createEventsWorld();
      path = String(w.projects.publicProject.id);
      await h.serve(w.fk);
    });

    it("id: a numeric id or the URL-encoded path", async () => {
      const byId = await get(path, w.tokens.bob);
      expect(byId.status).toBe(200);
      expect((await get("grp%2Fpublic-project", w.tokens.bob)).json).toEqual(byId.json);
    });

    it("unknown or invisible project → 404 Project Not Found (anonymous on a private project too)", async () => {
      for (const [id, token] of [["999", w.tokens.bob], ["grp%2Fsub%2Fprivate-project", undefined], ["grp%2Fsub%2Fprivate-project", w.carolTokens.api], ["public-project", w.tokens.bob]] as const) {
        const r = await get(id, token);
        expect([id, r.status, r.json]).toEqual([id, 404, { message: "404 Project Not Found" }]);
      }
      expect((await get("grp%2Fsub%2Fprivate-project", w.tokens.bob)).status).toBe(200);
    });

    it("scopes: api and read_api only — a read_user token → 403 insufficient_scope", async () => {
      const r = await get(path, w.carolTokens.readUser);
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ error: "insufficient_scope", scope: "api read_api" });
    });

    it("entity: every field of the spec's table, target_iid and data in project lists", async () => {
      const events = list((await get(path, undefined, { target_type: "issue" })).json);
      expect(events).toEqual([
        {
          id: expect.any(Number), title: null, project_id: w.projects.publicProject.id, action_name: "opened", target_id: expect.any(Number), target_iid: 1,
          target_type: "Issue", author_id: w.users.alice.id,
          author: { id: w.users.alice.id, username: "alice", name: "Alice Liddell", state: "active", locked: false, avatar_url: null, web_url: `${w.baseUrl}/alice` },
          author_username: "alice", target_title: "Public bug", created_at: "2024-05-02T10:01:00.000Z", data: null,
        },
      ]);
    });

    it("entity: note only on note events, with noteable_iid; push_data only on pushes, target_type null", async () => {
      const [note] = list((await get(path, undefined, { target_type: "note" })).json);
      expect(note).toMatchObject({
        action_name: "commented on", target_type: "Note", target_title: null, author_username: "bob",
        note: { body: "Seen it too", attachment: null, system: false, noteable_type: "Issue", noteable_iid: 1, author: { username: "bob" }, created_at: "2024-05-02T10:02:00.000Z" },
      });
      expect(note).not.toHaveProperty("push_data");
      const [push] = list((await get(path, undefined, { action: "pushed" })).json);
      expect(push).toMatchObject({
        action_name: "pushed to", target_type: null, target_id: null, target_iid: null,
        push_data: { commit_count: 2, action: "pushed", ref_type: "branch", commit_from: "1".repeat(40), commit_to: "2".repeat(40), ref: "main", commit_title: "Fix the bug", ref_count: null },
      });
      expect(push).not.toHaveProperty("note");
    });

    it("action_name: reference strings (merged → accepted, project created → created)", async () => {
      const names = list((await get(path, w.tokens.root, { sort: "asc" })).json).map((e) => e["action_name"]);
      expect(names).toEqual(["created", "opened", "commented on", "opened", "commented on", "pushed to", "opened", "accepted", "opened"]);
      const tag = list((await get("grp%2Finternal-project", w.tokens.bob, { action: "pushed" })).json);
      expect(tag.map((e) => [e["action_name"], (e["push_data"] as Json)["ref_type"]])).toEqual([["pushed new", "tag"]]);
    });

    it("visibility: confidential issues and their notes are hidden from non-members", async () => {
      const titles = async (token?: string) => list((await get(path, token)).json).map((e) => e["target_title"] ?? (e["note"] as Json | undefined)?.["body"] ?? e["action_name"]);
      expect(await titles()).not.toContain("Secret plan");
      expect(await titles(w.carolTokens.api)).not.toContain("Hush");
      expect(await titles(w.tokens.alice)).toEqual(expect.arrayContaining(["Secret plan", "Hush"]));
    });

    it("pages are full: totals count only visible events", async () => {
      const anonymous = await get(path, undefined, { per_page: "3" });
      expect(list(anonymous.json)).toHaveLength(3);
      expect(anonymous.headers).toMatchObject({ "x-total": "7", "x-total-pages": "3" });
      const last = await get(path, undefined, { per_page: "3", page: "3" });
      expect(list(last.json)).toHaveLength(1);
      expect((await get(path, w.tokens.alice, { per_page: "3" })).headers["x-total"]).toBe("9");
    });

    it("filters: before / after / sort, and bad values → 400", async () => {
      expect(list((await get(path, undefined, { before: "2024-05-02" })).json)).toEqual([]);
      expect(list((await get(path, undefined, { after: "2024-05-01", sort: "asc" })).json)[0]).toMatchObject({ action_name: "created" });
      expect((await get(path, undefined, { before: "soon" })).json).toEqual({ error: "before is invalid" });
      expect((await get(path, undefined, { target_type: "epic", action: "x" })).json).toEqual({ error: "action does not have a valid value, target_type does not have a valid value" });
    });
  });
};
