/** Group milestones over REST (reference `group_milestones.rb`): status codes, bodies, filters, state events, permissions. */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The group milestone endpoints. */
export const activityGroupMilestonesSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  const path = "/api/v4/groups/grp/milestones";
  const auth = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const create = (title: string, token: string, extra: Json = {}, at = path) => h.request("POST", at, { json: { title, ...extra }, headers: auth(token) });
  const titles = (json: unknown) => (json as Json[]).map((m) => m["title"]);
  /** Creates a milestone of `grp` as alice (201) and gives its id: for the tests that need one of their own. */
  const milestone = async (title: string) => {
    const r = await create(title, w.t.tokens.alice);
    expect(r.status).toBe(201);
    return String((r.json as Json)["id"]);
  };
  /** A public group of its own, without milestones: for the rules about a group's milestones as a whole (iids, the list). */
  const freshGroup = (name: string) => w.t.createGroup({ name, path: name, visibility: "public", ownerId: w.t.users.alice.id });

  describe("group milestones", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
    });

    describe("POST /groups/:id/milestones", () => {
      it("creates an active group milestone: 201 with group_id and the group's web_url", async () => {
        const { t } = w;
        const group = await freshGroup("first-milestone");
        const r = await create("Q1", t.tokens.alice, { description: "first quarter" }, `/api/v4/groups/${group.id}/milestones`);
        expect(r.status).toBe(201);
        const body = r.json as Json;
        expect(body).toEqual({
          id: body["id"],
          iid: 1,
          group_id: group.id,
          title: "Q1",
          description: "first quarter",
          state: "active",
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
          due_date: null,
          start_date: null,
          expired: false,
          web_url: `${t.baseUrl}/groups/first-milestone/-/milestones/1`,
        });
      });
      it("a taken title is 400 with the nested message; below Reporter is 403; an invisible group is 404", async () => {
        await milestone("Taken");
        expect((await create("Taken", w.t.tokens.alice)).json).toEqual({ message: { title: ["has already been taken"] } });
        expect((await create("Q9", w.carol.token)).status).toBe(403);
        expect((await h.request("POST", `/api/v4/groups/${w.t.groups.secret.id}/milestones`, { json: { title: "x" }, headers: auth(w.carol.token) })).status).toBe(404);
      });
      it("stores start_date and due_date; expired is a due date before today; a due date not after the start is 400", async () => {
        const past = await create("Past", w.t.tokens.alice, { start_date: "2000-01-01", due_date: "2000-02-01" });
        expect(past.status).toBe(201);
        expect(past.json).toMatchObject({ start_date: "2000-01-01", due_date: "2000-02-01", expired: true });
        expect((await create("Future", w.t.tokens.alice, { due_date: "2999-12-31" })).json).toMatchObject({ start_date: null, due_date: "2999-12-31", expired: false });
        const backwards = await create("Backwards", w.t.tokens.alice, { start_date: "2026-05-02", due_date: "2026-05-01" });
        expect(backwards.status).toBe(400);
        expect(backwards.json).toEqual({ message: { due_date: ["must be greater than start date"] } });
        expect((await create("Garbled", w.t.tokens.alice, { due_date: "someday" })).status).toBe(400);
        for (const title of ["Past", "Future"]) {
          const id = String(((await h.request("GET", path, { query: { title } })).json as Json[])[0]!["id"]);
          expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(w.t.tokens.alice) })).status).toBe(204);
        }
      });
    });

    describe("GET /groups/:id/milestones", () => {
      it("lists newest first with state, title, search and iids[] filters", async () => {
        // Its own group: the list is every milestone of the group, here two made in order.
        const at = `/api/v4/groups/${(await freshGroup("listed-milestones")).id}/milestones`;
        expect((await create("Q1", w.t.tokens.alice, { description: "first quarter" }, at)).status).toBe(201);
        expect((await create("Q2", w.t.tokens.alice, {}, at)).status).toBe(201);
        const list = async (query: Record<string, string | string[]> = {}) => titles((await h.request("GET", at, { query })).json);
        expect(await list()).toEqual(["Q2", "Q1"]);
        expect(await list({ search: "QUARTER" })).toEqual(["Q1"]);
        expect(await list({ title: "Q2" })).toEqual(["Q2"]);
        expect(await list({ "iids[]": ["1"] })).toEqual(["Q1"]);
        expect(await list({ state: "closed" })).toEqual([]);
      });
    });

    describe("GET /groups/:id/milestones/:milestone_id", () => {
      it("shows by id; another group's id is 404 Milestone Not Found", async () => {
        const id = Number(await milestone("Shown"));
        expect((await h.request("GET", `${path}/${String(id)}`)).json).toMatchObject({ id, title: "Shown" });
        const other = await h.request("GET", `/api/v4/groups/${w.t.groups.secret.id}/milestones/${String(id)}`, { headers: auth(w.t.tokens.alice) });
        expect(other.json).toEqual({ message: "404 Milestone Not Found" });
      });
    });

    describe("PUT /groups/:id/milestones/:milestone_id", () => {
      it("state_event close / activate and title changes; no parameter is 400; below Reporter is 403", async () => {
        const id = await milestone("Toggled");
        expect((await h.request("PUT", `${path}/${id}`, { json: { state_event: "close" }, headers: auth(w.t.tokens.alice) })).json).toMatchObject({ state: "closed" });
        expect((await h.request("PUT", `${path}/${id}`, { json: { state_event: "activate", title: "Toggled b" }, headers: auth(w.t.tokens.alice) })).json).toMatchObject({ state: "active", title: "Toggled b" });
        expect((await h.request("PUT", `${path}/${id}`, { json: {}, headers: auth(w.t.tokens.alice) })).status).toBe(400);
        expect((await h.request("PUT", `${path}/${id}`, { json: { title: "x" }, headers: auth(w.carol.token) })).status).toBe(403);
      });
      it("sets and moves start_date / due_date, keeping the other; a due date not after the start is 400 and changes nothing", async () => {
        const id = await milestone("Dated");
        const put = (json: Json) => h.request("PUT", `${path}/${id}`, { json, headers: auth(w.t.tokens.alice) });
        expect((await put({ start_date: "2000-03-01", due_date: "2000-03-31" })).json).toMatchObject({ start_date: "2000-03-01", due_date: "2000-03-31", expired: true });
        expect((await put({ due_date: "2999-01-01" })).json).toMatchObject({ start_date: "2000-03-01", due_date: "2999-01-01", expired: false });
        const backwards = await put({ due_date: "2000-02-01" });
        expect(backwards.status).toBe(400);
        expect(backwards.json).toEqual({ message: { due_date: ["must be greater than start date"] } });
        expect((await h.request("GET", `${path}/${id}`)).json).toMatchObject({ start_date: "2000-03-01", due_date: "2999-01-01" });
      });
    });

    describe("DELETE /groups/:id/milestones/:milestone_id", () => {
      it("deletes (204, then 404); below Reporter is 403", async () => {
        const id = await milestone("Doomed");
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(w.carol.token) })).status).toBe(403);
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(w.t.tokens.alice) })).status).toBe(204);
        expect((await h.request("GET", `${path}/${id}`)).status).toBe(404);
      });
    });
  });
};
