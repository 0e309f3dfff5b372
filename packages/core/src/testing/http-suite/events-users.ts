/** `GET /users/:id/events` (spec "Events"; reference §2.1–2.2). */
import { beforeAll, describe, expect, it } from "vitest";
import { must } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";
import { createEventsWorld, type EventsWorld } from "./events-fixture.js";

type Json = Record<string, unknown>;
const list = (json: unknown) => json as Json[];

/** `GET /users/:id/events`. */
export const userEventsSuite: HttpSuite = (h) => {
  describe("GET /users/:id/events", () => {
    let w: EventsWorld;
    const get = (id: string, token?: string, query: Record<string, string> = {}) =>
      h.request("GET", `/api/v4/users/${id}/events`, { headers: token === undefined ? {} : { "private-token": token }, query });
    const titles = (json: unknown) => list(json).map((e) => e["target_title"]);

    beforeAll(async () => {
      w = await createEventsWorld();
      await h.serve(w.fk);
    });

    it("id: a numeric id or a username (case-insensitive)", async () => {
      const byId = await get(String(w.users.alice.id), w.carolTokens.api);
      const byName = await get("ALICE", w.carolTokens.api);
      expect(byId.status).toBe(200);
      expect(byName.json).toEqual(byId.json);
    });

    it("unknown user → 404 User Not Found", async () => {
      const r = await get("nobody", w.carolTokens.api);
      expect([r.status, r.json]).toEqual([404, { message: "404 User Not Found" }]);
    });

    it("visibility: only events in projects the caller can read; confidential issues hidden from non-members", async () => {
      const carol = list((await get("alice", w.carolTokens.api)).json);
      expect(new Set(carol.map((e) => e["project_id"]))).toEqual(new Set([w.projects.publicProject.id, w.projects.internalProject.id]));
      expect(titles(carol)).not.toContain("Secret plan");
      expect(carol.filter((e) => e["target_type"] === "Note")).toEqual([]);
      const admin = list((await get("alice", w.tokens.root)).json);
      expect(titles(admin)).toContain("Secret plan");
      expect(admin).toHaveLength(11);
    });

    it("visibility: anonymous callers see public projects' events only", async () => {
      const r = await get("alice");
      expect(r.status).toBe(200);
      expect(new Set(list(r.json).map((e) => e["project_id"]))).toEqual(new Set([w.projects.publicProject.id]));
      expect(list(r.json)).toHaveLength(5);
    });

    it("private profile: others get 200 with [], the user and administrators the events", async () => {
      await must(w.fk.users.update(w.carol.id, { privateProfile: true }));
      await must(w.fk.events.record({ projectId: w.projects.publicProject.id, authorId: w.carol.id, action: "updated", target: { type: "User", id: w.carol.id } }));
      const other = await get("carol", w.tokens.bob);
      expect([other.status, other.json]).toEqual([200, []]);
      expect(other.headers["x-total"]).toBe("0");
      expect(list((await get("carol", w.carolTokens.api)).json)).toHaveLength(1);
      expect(list((await get("carol", w.tokens.root)).json)).toHaveLength(1);
      expect((await get("carol")).json).toEqual([]);
    });

    it("scopes: read_user is accepted, read_repository alone → 403", async () => {
      expect((await get("alice", w.carolTokens.readUser)).status).toBe(200);
      expect((await get("alice", w.carolTokens.readRepository)).status).toBe(403);
    });

    it("filters and pagination apply to the visible events (pages are full)", async () => {
      const r = await get("alice", w.carolTokens.api, { per_page: "2", target_type: "issue" });
      expect(titles(r.json)).toEqual(["Public bug"]);
      expect(r.headers["x-total"]).toBe("1");
      const page = await get("alice", w.carolTokens.api, { per_page: "2", page: "2" });
      expect(list(page.json)).toHaveLength(2);
      expect(page.headers["x-total"]).toBe("6");
      expect((await get("alice", w.carolTokens.api, { action: "merged" })).json).toEqual([]);
      expect((await get("alice", w.carolTokens.api, { target_type: "wiki" })).status).toBe(400);
    });
  });
};
