/**
 * Group labels over REST (reference `group_labels.rb`, `LabelHelpers`): the GroupLabel entity,
 * conflicts and permissions, ancestor groups' labels in group and project lists and lookups (but
 * not in project edits), renames and deletions, subscriptions, and issues applying a group's label
 * by name instead of creating a project label.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The group label endpoints. */
export const groupLabelsSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  const auth = (token: string) => ({ "private-token": token });
  const names = (json: unknown) => (json as Json[]).map((l) => l["name"]);
  const get = (path: string, token: string, query: Record<string, string> = {}) => h.request("GET", `/api/v4${path}`, { headers: auth(token), query });
  /** Creates a label of `group` as alice (201): for the tests that need a group label of their own. */
  const groupLabel = async (group: number, name: string) => {
    const r = await h.request("POST", `/api/v4/groups/${group}/labels`, { json: { name, color: "teal" }, headers: auth(w.t.tokens.alice) });
    expect(r.status).toBe(201);
    return r.json as Json;
  };
  /** A public project of its own in `grp`, without labels or issues, below the group's labels. */
  const projectInGrp = (path: string) => w.t.createProject({ namespaceId: w.t.groups.grp.id, path, name: path, visibility: "public", creatorId: w.t.users.alice.id });

  describe("group labels", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
    });

    describe("POST /groups/:id/labels", () => {
      it("creates a group label: 201 with the GroupLabel entity (no priority, no is_project_label)", async () => {
        const r = await h.request("POST", `/api/v4/groups/${w.t.groups.grp.id}/labels`, { json: { name: "team", color: "teal", description: "Team work", priority: 3 }, headers: auth(w.t.tokens.alice) });
        expect(r.status).toBe(201);
        expect(r.json).toEqual({ id: (r.json as Json)["id"], name: "team", color: "#008080", description: "Team work", description_html: "Team work", text_color: "#FFFFFF", subscribed: false });
      });
      it("an existing name is 409; below Reporter is 403; an unreadable group is 404", async () => {
        await groupLabel(w.t.groups.grp.id, "taken");
        const post = (group: number | string, token: string) => h.request("POST", `/api/v4/groups/${group}/labels`, { json: { name: "taken", color: "#000000" }, headers: auth(token) });
        expect(await post(w.t.groups.grp.id, w.t.tokens.alice)).toMatchObject({ status: 409, json: { message: "Label already exists" } });
        expect((await post(w.t.groups.grp.id, w.carol.token)).status).toBe(403);
        expect((await post(w.t.groups.secret.id, w.carol.token)).status).toBe(404);
      });
    });

    describe("GET /groups/:id/labels and /projects/:id/labels with ancestor groups", () => {
      it("a subgroup and a project below the group list its labels (include_ancestor_groups=false leaves them out)", async () => {
        // A public group of its own with one label, a private subgroup bob develops in and a public project:
        // their lists are exactly what the group's one label makes them.
        const { t } = w;
        const grp = await t.createGroup({ name: "Listed", path: "listed", visibility: "public", ownerId: t.users.alice.id });
        const sub = await t.createGroup({ name: "Listed sub", path: "listed-sub", parentId: grp.id, visibility: "private" });
        await t.addMember({ group: sub }, t.users.bob, AccessLevel.Developer);
        const below = await t.createProject({ namespaceId: grp.id, path: "listed-project", name: "listed-project", visibility: "public", creatorId: t.users.alice.id });
        await groupLabel(grp.id, "team");
        expect(names((await get(`/groups/${grp.id}/labels`, w.carol.token)).json)).toEqual(["team"]);
        expect(names((await get(`/groups/${sub.id}/labels`, w.t.tokens.bob)).json)).toEqual(["team"]);
        expect(names((await get(`/groups/${sub.id}/labels`, w.t.tokens.bob, { include_ancestor_groups: "false" })).json)).toEqual([]);
        const project = `/projects/${below.id}/labels`;
        expect((await get(project, w.carol.token)).json).toEqual([expect.objectContaining({ name: "team", is_project_label: false, priority: null })]);
        expect((await get(project, w.carol.token, { include_ancestor_groups: "false" })).json).toEqual([]);
        expect((await get(`${project}/team`, w.carol.token)).json).toMatchObject({ name: "team", is_project_label: false });
      });
      it("a project edits only its own labels: the group's label is 404 there", async () => {
        await groupLabel(w.t.groups.grp.id, "group-owned");
        expect((await get(`/projects/${w.t.projects.publicProject.id}/labels/group-owned`, w.t.tokens.alice)).json).toMatchObject({ name: "group-owned", is_project_label: false });
        const r = await h.request("PUT", `/api/v4/projects/${w.t.projects.publicProject.id}/labels/group-owned`, { json: { color: "red" }, headers: auth(w.t.tokens.alice) });
        expect(r).toMatchObject({ status: 404, json: { message: "404 Label Not Found" } });
      });
    });

    describe("labels issues carry", () => {
      it("applying a name an ancestor group has puts the group's label on the issue (no project label is created)", async () => {
        // Its own label of `grp` and its own project below it, so the project's labels and the label's counts are this test's alone.
        await groupLabel(w.t.groups.grp.id, "applied");
        const pid = (await projectInGrp("applying-labels")).id;
        const issue = (await h.request("POST", `/api/v4/projects/${pid}/issues`, { json: { title: "team work", labels: "applied" }, headers: auth(w.t.tokens.alice) })).json as Json;
        expect(issue["labels"]).toEqual(["applied"]);
        expect((await get(`/projects/${pid}/labels`, w.t.tokens.alice, { include_ancestor_groups: "false" })).json).toEqual([]);
        const counts = (await get(`/groups/${w.t.groups.grp.id}/labels`, w.t.tokens.alice, { with_counts: "true" })).json as Json[];
        expect(counts.find((l) => l["name"] === "applied")).toMatchObject({ name: "applied", open_issues_count: 1, closed_issues_count: 0, open_merge_requests_count: 0 });
      });
    });

    describe("PUT, DELETE and subscriptions of /groups/:id/labels/:label_id", () => {
      it("renames (the issues show the new name), subscribes (304 when unchanged) and deletes", async () => {
        const { grp } = w.t.groups;
        const at = `/api/v4/groups/${grp.id}/labels`;
        // Its own label of `grp`, carried by the one issue of its own project.
        await groupLabel(grp.id, "squad");
        const project = await projectInGrp("renamed-labels");
        expect((await h.request("POST", `/api/v4/projects/${project.id}/issues`, { json: { title: "squad work", labels: "squad" }, headers: auth(w.t.tokens.alice) })).status).toBe(201);
        expect((await h.request("PUT", `${at}/squad`, { json: {}, headers: auth(w.t.tokens.alice) })).json).toEqual({ error: "new_name, color, description are missing, at least one parameter must be provided" });
        expect((await h.request("PUT", at, { json: { name: "squad", new_name: "crew" }, headers: auth(w.t.tokens.alice) })).json).toMatchObject({ name: "crew" });
        const issues = (await get(`/projects/${project.id}/issues`, w.t.tokens.alice)).json as Json[];
        expect(issues.map((i) => i["labels"])).toEqual([["crew"]]);
        expect((await h.request("POST", `${at}/crew/subscribe`, { headers: auth(w.carol.token) })).json).toMatchObject({ name: "crew", subscribed: true });
        expect((await h.request("POST", `${at}/crew/subscribe`, { headers: auth(w.carol.token) })).status).toBe(304);
        expect((await h.request("DELETE", `${at}/crew`, { headers: auth(w.carol.token) })).status).toBe(403);
        expect((await h.request("DELETE", `${at}/crew`, { headers: auth(w.t.tokens.alice) })).status).toBe(204);
        expect((await get(`/projects/${project.id}/issues`, w.t.tokens.alice)).json).toEqual([expect.objectContaining({ labels: [] })]);
      });
    });
  });
};
