/** `GET /events` (spec "Events"; reference §2.1): the caller's own events, or with `scope=all` their projects' events. */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createEventsWorld, type EventsWorld } from "./events-fixture.js";

type Json = Record<string, unknown>;
const list = (json: unknown) => json as Json[];

/** `GET /events`. */
export const ownEventsSuite: HttpSuite = (h) => {
  describe("GET /events", () => {
    let w: EventsWorld;
    const get = (token: string | undefined, query: Record<string, string> = {}) => h.request("GET", "/api/v4/events", { headers: token === undefined ? {} : { "private-token": token }, query });

    beforeAll(async () => {
      w = await createEventsWorld();
      await h.serve(w.fk);
    });

    it("authentication: anonymous → 401", async () => {
      const r = await get(undefined);
      expect([r.status, r.json]).toEqual([401, { message: "401 Unauthorized" }]);
    });

    it("scopes: read_user and api tokens are accepted; read_repository alone → 403 insufficient_scope", async () => {
      expect((await get(w.carolTokens.readUser)).status).toBe(200);
      expect((await get(w.carolTokens.api)).status).toBe(200);
      const r = await get(w.carolTokens.readRepository);
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ error: "insufficient_scope", scope: "read_user api read_api" });
    });

    it("scopes: HEAD with a read_user token → 200", async () => {
      const r = await h.request("HEAD", "/api/v4/events", { headers: { "private-token": w.aliceReadUser } });
      expect(r.status).toBe(200);
    });

    it("source: the caller's own events, newest first by created_at", async () => {
      const events = list((await get(w.tokens.alice)).json);
      expect(events.every((e) => e["author_username"] === "alice")).toBe(true);
      expect(events.map((e) => e["action_name"]).slice(0, 4)).toEqual(["opened", "opened", "pushed to", "commented on"]);
      const times = events.map((e) => String(e["created_at"]));
      expect([...times].sort().reverse()).toEqual(times);
      expect(events).toHaveLength(11);
    });

    it("scope=all: events of every project the caller is authorised for, by anyone", async () => {
      const events = list((await get(w.tokens.bob, { scope: "all" })).json);
      const projects = new Set(events.map((e) => e["project_id"]));
      expect(projects).toEqual(new Set([w.projects.internalProject.id, w.projects.privateProject.id]));
      expect(events.map((e) => [e["author_username"], e["action_name"]])).toEqual([
        ["bob", "pushed new"],
        ["bob", "opened"],
        ["bob", "joined"],
        ["alice", "created"],
        ["alice", "created"],
      ]);
    });

    it("entity: user lists carry no target_iid or data", async () => {
      const [event] = list((await get(w.tokens.bob)).json);
      expect(event).toMatchObject({ title: null, author: { username: "bob" }, author_username: "bob" });
      expect(event).not.toHaveProperty("target_iid");
      expect(event).not.toHaveProperty("data");
    });

    it("filters: action and target_type (lowercase names)", async () => {
      const pushed = list((await get(w.tokens.alice, { action: "pushed" })).json);
      expect(pushed.map((e) => e["push_data"])).toEqual([expect.objectContaining({ ref: "main", commit_count: 2, commit_title: "Fix the bug" })]);
      const mrs = list((await get(w.tokens.alice, { target_type: "merge_request" })).json);
      expect(mrs.map((e) => [e["target_type"], e["target_title"]])).toEqual([["MergeRequest", "Fix bug"]]);
      expect(list((await get(w.tokens.alice, { action: "created", target_type: "milestone" })).json)).toHaveLength(1);
    });

    it("filters: before / after name whole days and exclude them", async () => {
      expect(list((await get(w.tokens.alice, { after: "2024-05-01", before: "2024-05-03" })).json)).toHaveLength(11);
      expect(list((await get(w.tokens.alice, { after: "2024-05-02" })).json)).toHaveLength(0);
      expect(list((await get(w.tokens.alice, { before: "2024-05-02" })).json)).toHaveLength(0);
    });

    it("validation: bad filter values → 400 with the reference's messages", async () => {
      const cases: [Record<string, string>, string][] = [
        [{ action: "opened" }, "action does not have a valid value"],
        [{ target_type: "epic" }, "target_type does not have a valid value"],
        [{ target_type: "Issue" }, "target_type does not have a valid value"],
        [{ before: "2024-5-1" }, "before is invalid"],
        [{ after: "2024-02-30" }, "after is invalid"],
        [{ sort: "newest" }, "sort does not have a valid value"],
      ];
      for (const [query, error] of cases) {
        const r = await get(w.tokens.alice, query);
        expect([query, r.status, r.json]).toEqual([query, 400, { error }]);
      }
    });

    it("sort: asc reverses the order", async () => {
      const desc = list((await get(w.tokens.alice)).json).map((e) => e["id"]);
      const asc = list((await get(w.tokens.alice, { sort: "asc" })).json).map((e) => e["id"]);
      expect(asc).toEqual([...desc].reverse());
    });

    it("pagination: offset pages with the foundation's headers", async () => {
      const r = await get(w.tokens.alice, { per_page: "4", page: "2" });
      expect(list(r.json)).toHaveLength(4);
      expect(r.headers).toMatchObject({ "x-page": "2", "x-per-page": "4", "x-total": "11", "x-total-pages": "3", "x-next-page": "3", "x-prev-page": "1" });
      expect(r.headers["link"]).toContain('rel="next"');
      const keyset = await get(w.tokens.alice, { pagination: "keyset" });
      expect(keyset.status).toBe(405);
    });
  });
};
