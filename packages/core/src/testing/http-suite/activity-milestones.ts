/**
 * Project milestones over REST (reference `project_milestones.rb`, MilestonePolicy): status codes,
 * bodies, filters, state events, permissions and events.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The project milestone endpoints. */
export const activityMilestonesSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  let path: string;
  const auth = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const titles = (json: unknown) => (json as Json[]).map((m) => m["title"]);
  const create = (title: string, token: string, extra: Json = {}) => h.request("POST", path, { json: { title, ...extra }, headers: auth(token) });

  describe("project milestones", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
      path = `/api/v4/projects/${w.t.projects.publicProject.id}/milestones`;
    });

    describe("POST /projects/:id/milestones", () => {
      it("creates an active milestone: 201, the reference's entity and a `created` event", async () => {
        const { t } = w;
        const r = await create("v1.0", t.tokens.alice, { description: "First release" });
        expect(r.status).toBe(201);
        const body = r.json as Json;
        expect(body).toEqual({
          id: body["id"],
          iid: 1,
          project_id: t.projects.publicProject.id,
          title: "v1.0",
          description: "First release",
          state: "active",
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
          due_date: null,
          start_date: null,
          expired: false,
          web_url: `${t.baseUrl}/grp/public-project/-/milestones/1`,
        });
        const events = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { query: { target_type: "milestone" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events[0]).toMatchObject({ action_name: "opened", target_type: "Milestone", target_id: body["id"] });
      });
      it("a taken title is 400 with the nested message; a missing title is `title not given`", async () => {
        const taken = await create("v1.0", w.t.tokens.alice);
        expect(taken.status).toBe(400);
        expect(taken.json).toEqual({ message: { title: ["has already been taken"] } });
        expect((await h.request("POST", path, { json: {}, headers: auth(w.t.tokens.alice) })).json).toEqual({ message: '400 (Bad request) "title" not given' });
      });
      it("below Reporter is 403; an invisible project is 404; read_api is 403", async () => {
        expect((await create("x", w.carol.token)).status).toBe(403);
        expect((await h.request("POST", `/api/v4/projects/${w.t.projects.hidden.id}/milestones`, { json: { title: "x" }, headers: auth(w.carol.token) })).status).toBe(404);
        expect((await create("x", w.readApi)).status).toBe(403);
      });
    });

    describe("GET /projects/:id/milestones", () => {
      it("lists newest first; filters state, title, search and iids[]", async () => {
        const { t } = w;
        await create("v2.0", t.tokens.alice);
        await create("v3.0", t.tokens.alice, { description: "later" });
        const list = async (query: Record<string, string | string[]> = {}) => titles((await h.request("GET", path, { query, headers: auth(w.carol.token) })).json);
        expect(await list()).toEqual(["v3.0", "v2.0", "v1.0"]);
        expect(await list({ title: "v2.0" })).toEqual(["v2.0"]);
        expect(await list({ search: "LATER" })).toEqual(["v3.0"]);
        expect(await list({ "iids[]": ["1"] })).toEqual(["v1.0"]);
        expect(await list({ state: "closed" })).toEqual([]);
        expect((await h.request("GET", path, { query: { state: "done" } })).json).toEqual({ error: "state does not have a valid value" });
      });
    });

    describe("GET /projects/:id/milestones/:milestone_id", () => {
      it("shows by id; another project's milestone is 404 Milestone Not Found", async () => {
        const { t } = w;
        const list = (await h.request("GET", path, { query: { title: "v1.0" } })).json as Json[];
        const id = list[0]!["id"];
        expect((await h.request("GET", `${path}/${String(id)}`)).json).toMatchObject({ id, title: "v1.0" });
        const other = await h.request("GET", `/api/v4/projects/${t.projects.internalProject.id}/milestones/${String(id)}`, { headers: auth(t.tokens.alice) });
        expect(other.status).toBe(404);
        expect(other.json).toEqual({ message: "404 Milestone Not Found" });
      });
    });

    describe("PUT /projects/:id/milestones/:milestone_id", () => {
      it("state_event=close closes with a `closed` event, activate reactivates; title and description change", async () => {
        const { t } = w;
        const id = String(((await create("v9", t.tokens.alice)).json as Json)["id"]);
        const closed = await h.request("PUT", `${path}/${id}`, { json: { state_event: "close", description: "done" }, headers: auth(t.tokens.alice) });
        expect(closed.json).toMatchObject({ state: "closed", description: "done" });
        const active = await h.request("PUT", `${path}/${id}`, { json: { state_event: "activate", title: "v9.1" }, headers: auth(t.tokens.alice) });
        expect(active.json).toMatchObject({ state: "active", title: "v9.1" });
        const events = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { query: { target_type: "milestone" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events.filter((e) => String(e["target_id"]) === id).map((e) => e["action_name"])).toEqual(["opened", "closed", "opened"]);
      });
      it("no parameter is 400; below Reporter is 403", async () => {
        const id = String(((await h.request("GET", path, { query: { title: "v1.0" } })).json as Json[])[0]!["id"]);
        expect((await h.request("PUT", `${path}/${id}`, { json: {}, headers: auth(w.t.tokens.alice) })).status).toBe(400);
        expect((await h.request("PUT", `${path}/${id}`, { json: { title: "x" }, headers: auth(w.carol.token) })).status).toBe(403);
      });
    });

    describe("GET /projects/:id/milestones/:milestone_id/issues", () => {
      it("lists the milestone's issues", async () => {
        const { t } = w;
        const id = ((await h.request("GET", path, { query: { title: "v2.0" } })).json as Json[])[0]!["id"];
        await h.request("POST", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { json: { title: "In v2", milestone_id: id }, headers: auth(t.tokens.alice) });
        await h.request("POST", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { json: { title: "Elsewhere" }, headers: auth(t.tokens.alice) });
        const r = await h.request("GET", `${path}/${String(id)}/issues`, { headers: auth(t.tokens.alice) });
        expect((r.json as Json[]).map((i) => i["title"])).toEqual(["In v2"]);
      });
    });

    describe("DELETE /projects/:id/milestones/:milestone_id", () => {
      it("deletes (204, then 404) with a `destroyed` event; its issues keep no milestone", async () => {
        const { t } = w;
        const id = String(((await h.request("GET", path, { query: { title: "v2.0" } })).json as Json[])[0]!["id"]);
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(w.carol.token) })).status).toBe(403);
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(t.tokens.alice) })).status).toBe(204);
        expect((await h.request("GET", `${path}/${id}`)).status).toBe(404);
        const issues = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { query: { search: "In v2" } })).json as Json[];
        expect(issues[0]).toMatchObject({ milestone: null });
        const events = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { query: { action: "destroyed" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events[0]).toMatchObject({ action_name: "destroyed", target_type: "Milestone" });
      });
    });
  });
};
