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
  const create = (title: string, token: string, extra: Json = {}, at = path) => h.request("POST", at, { json: { title, ...extra }, headers: auth(token) });
  /** Creates a milestone of the public project as alice (201) and gives its id: for the tests that need one of their own. */
  const milestone = async (title: string) => {
    const r = await create(title, w.t.tokens.alice);
    expect(r.status).toBe(201);
    return String((r.json as Json)["id"]);
  };
  /** A public project of its own in `grp`, without milestones: for the rules about a project's milestones as a whole (iids, the list). */
  const freshProject = (name: string) => w.t.createProject({ namespaceId: w.t.groups.grp.id, path: name, name, visibility: "public", creatorId: w.t.users.alice.id });

  describe("project milestones", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
      path = `/api/v4/projects/${w.t.projects.publicProject.id}/milestones`;
    });

    describe("POST /projects/:id/milestones", () => {
      it("creates an active milestone: 201, the reference's entity and a `created` event", async () => {
        const { t } = w;
        const project = await freshProject("first-milestone");
        const r = await create("v1.0", t.tokens.alice, { description: "First release" }, `/api/v4/projects/${project.id}/milestones`);
        expect(r.status).toBe(201);
        const body = r.json as Json;
        expect(body).toEqual({
          id: body["id"],
          iid: 1,
          project_id: project.id,
          title: "v1.0",
          description: "First release",
          state: "active",
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
          due_date: null,
          start_date: null,
          expired: false,
          web_url: `${t.baseUrl}/grp/first-milestone/-/milestones/1`,
        });
        const events = (await h.request("GET", `/api/v4/projects/${project.id}/events`, { query: { target_type: "milestone" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events[0]).toMatchObject({ action_name: "opened", target_type: "Milestone", target_id: body["id"] });
      });
      it("a taken title is 400 with the nested message; a missing title is `title not given`", async () => {
        await milestone("taken");
        const taken = await create("taken", w.t.tokens.alice);
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
        // Its own project: the list is every milestone of the project, here three made in order.
        const at = `/api/v4/projects/${(await freshProject("listed-milestones")).id}/milestones`;
        expect((await create("v1.0", t.tokens.alice, { description: "First release" }, at)).status).toBe(201);
        expect((await create("v2.0", t.tokens.alice, {}, at)).status).toBe(201);
        expect((await create("v3.0", t.tokens.alice, { description: "later" }, at)).status).toBe(201);
        const list = async (query: Record<string, string | string[]> = {}) => titles((await h.request("GET", at, { query, headers: auth(w.carol.token) })).json);
        expect(await list()).toEqual(["v3.0", "v2.0", "v1.0"]);
        expect(await list({ title: "v2.0" })).toEqual(["v2.0"]);
        expect(await list({ search: "LATER" })).toEqual(["v3.0"]);
        expect(await list({ "iids[]": ["1"] })).toEqual(["v1.0"]);
        expect(await list({ state: "closed" })).toEqual([]);
        expect((await h.request("GET", at, { query: { state: "done" } })).json).toEqual({ error: "state does not have a valid value" });
      });
    });

    describe("GET /projects/:id/milestones/:milestone_id", () => {
      it("shows by id; another project's milestone is 404 Milestone Not Found", async () => {
        const { t } = w;
        const id = Number(await milestone("shown"));
        expect((await h.request("GET", `${path}/${String(id)}`)).json).toMatchObject({ id, title: "shown" });
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
        const id = await milestone("untouched");
        expect((await h.request("PUT", `${path}/${id}`, { json: {}, headers: auth(w.t.tokens.alice) })).status).toBe(400);
        expect((await h.request("PUT", `${path}/${id}`, { json: { title: "x" }, headers: auth(w.carol.token) })).status).toBe(403);
      });
    });

    describe("GET /projects/:id/milestones/:milestone_id/issues", () => {
      it("lists the milestone's issues", async () => {
        const { t } = w;
        const id = await milestone("with-issues");
        expect((await h.request("POST", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { json: { title: "In with-issues", milestone_id: Number(id) }, headers: auth(t.tokens.alice) })).status).toBe(201);
        expect((await h.request("POST", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { json: { title: "Elsewhere" }, headers: auth(t.tokens.alice) })).status).toBe(201);
        const r = await h.request("GET", `${path}/${id}/issues`, { headers: auth(t.tokens.alice) });
        expect((r.json as Json[]).map((i) => i["title"])).toEqual(["In with-issues"]);
      });
    });

    describe("DELETE /projects/:id/milestones/:milestone_id", () => {
      it("deletes (204, then 404) with a `destroyed` event; its issues keep no milestone", async () => {
        const { t } = w;
        const id = await milestone("doomed");
        const carried = (await h.request("POST", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { json: { title: "In doomed milestone", milestone_id: Number(id) }, headers: auth(t.tokens.alice) })).json as Json;
        expect(carried["milestone"]).toMatchObject({ id: Number(id) });
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(w.carol.token) })).status).toBe(403);
        expect((await h.request("DELETE", `${path}/${id}`, { headers: auth(t.tokens.alice) })).status).toBe(204);
        expect((await h.request("GET", `${path}/${id}`)).status).toBe(404);
        const issues = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/issues`, { query: { "iids[]": String(carried["iid"]) } })).json as Json[];
        expect(issues).toEqual([expect.objectContaining({ title: "In doomed milestone", milestone: null })]);
        const events = (await h.request("GET", `/api/v4/projects/${t.projects.publicProject.id}/events`, { query: { action: "destroyed" }, headers: auth(t.tokens.alice) })).json as Json[];
        expect(events.filter((e) => String(e["target_id"]) === id)).toEqual([expect.objectContaining({ action_name: "destroyed", target_type: "Milestone" })]);
      });
    });
  });
};
