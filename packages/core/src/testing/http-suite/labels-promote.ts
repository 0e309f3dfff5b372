/**
 * Promoting a project label to a group label (reference `PUT /projects/:id/labels/:name/promote`,
 * `Labels::PromoteService`): the group label that results, the issues, priorities and subscriptions
 * that move to it from the labels of that title in the group's projects, and the refusals. Every
 * test makes its own group and projects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel, type Group, type Project } from "../../accounts/types.js";
import type { HttpSuite } from "../http-harness.js";
import { activityWorld, type ActivityWorld, type Json } from "./activity-fixture.js";

/** The label promotion endpoints. */
export const labelPromotionSuite: HttpSuite = (h) => {
  let w: ActivityWorld;
  let groups = 0;
  const auth = (token: string) => ({ "private-token": token });
  const call = (method: string, path: string, token: string, json?: Json, query: Record<string, string> = {}) => h.request(method, `/api/v4${path}`, { headers: auth(token), query, ...(json === undefined ? {} : { json }) });
  const made = async (method: string, path: string, json: Json, token = w.t.tokens.alice): Promise<Json> => {
    const r = await call(method, path, token, json);
    expect([path, r.status]).toEqual([path, method === "POST" ? 201 : 200]);
    return r.json as Json;
  };
  /** A group of alice's with two projects in it (bob a Developer of the first project only). */
  const world = async (): Promise<{ group: Group; a: Project; b: Project }> => {
    groups += 1;
    const { t } = w;
    const group = await t.createGroup({ name: `Promo ${groups}`, path: `promo-${groups}`, visibility: "private", ownerId: t.users.alice.id });
    const project = (path: string) => t.createProject({ namespaceId: group.id, path, name: path, visibility: "private", creatorId: t.users.alice.id });
    const [a, b] = [await project("a"), await project("b")];
    await t.addMember({ project: a }, t.users.bob, AccessLevel.Developer);
    return { group, a, b };
  };
  const labelNames = (json: unknown) => (json as Json[]).map((l) => l["name"]);

  describe("label promotion", () => {
    beforeAll(async () => {
      w = await activityWorld();
      await h.serve(w.t.fk);
    });

    describe("PUT /projects/:id/labels/:label_id/promote", () => {
      it("200 with the GroupLabel: the group's projects' issues with a label of that title carry it, its priority and subscribers stay, the project labels are gone", async () => {
        const { group, a, b } = await world();
        const bug = await made("POST", `/projects/${a.id}/labels`, { name: "bug", color: "#d9534f", description: "Broken", priority: 2 });
        await made("POST", `/projects/${b.id}/labels`, { name: "bug", color: "#000000" });
        await made("POST", `/projects/${a.id}/labels`, { name: "other", color: "#000000" });
        await made("POST", `/projects/${a.id}/labels/bug/subscribe`, {}, w.t.tokens.bob);
        const issueA = await made("POST", `/projects/${a.id}/issues`, { title: "in a", labels: "bug,other" });
        const issueB = await made("POST", `/projects/${b.id}/issues`, { title: "in b", labels: "bug" });

        const r = await call("PUT", `/projects/${a.id}/labels/${String(bug["id"])}/promote`, w.t.tokens.alice);
        expect(r.status).toBe(200);
        const promoted = r.json as Json;
        expect(promoted).toEqual({ id: promoted["id"], name: "bug", color: "#d9534f", description: "Broken", description_html: "Broken", text_color: "#FFFFFF", subscribed: false });

        expect((await call("GET", `/groups/${group.id}/labels`, w.t.tokens.alice, undefined, { with_counts: "true" })).json).toEqual([expect.objectContaining({ id: promoted["id"], name: "bug", open_issues_count: 2 })]);
        for (const p of [a, b]) expect(labelNames((await call("GET", `/projects/${p.id}/labels`, w.t.tokens.alice, undefined, { include_ancestor_groups: "false" })).json)).toEqual(p === a ? ["other"] : []);
        expect((await call("GET", `/projects/${a.id}/labels/bug`, w.t.tokens.bob)).json).toMatchObject({ id: promoted["id"], is_project_label: false, priority: 2, subscribed: true });
        expect(((await call("GET", `/projects/${a.id}/issues/${String(issueA["iid"])}`, w.t.tokens.alice)).json as Json)["labels"]).toEqual(["bug", "other"]);
        expect(((await call("GET", `/projects/${b.id}/issues`, w.t.tokens.alice, undefined, { labels: "bug" })).json as Json[]).map((i) => i["id"])).toEqual([issueB["id"]]);
      });

      it("the label by title; a group label of that title takes the project label's colour and description and keeps its id", async () => {
        const { group, a } = await world();
        const existing = await made("POST", `/groups/${group.id}/labels`, { name: "docs", color: "#000000", description: "old" });
        await made("POST", `/projects/${a.id}/labels`, { name: "docs", color: "#0075ca", description: "Documentation" });
        const r = await call("PUT", `/projects/${a.id}/labels/docs/promote`, w.t.tokens.alice);
        expect(r).toMatchObject({ status: 200, json: { id: existing["id"], name: "docs", color: "#0075ca", description: "Documentation" } });
        expect(labelNames((await call("GET", `/groups/${group.id}/labels`, w.t.tokens.alice)).json)).toEqual(["docs"]);
      });

      it("400 for a project outside a group; 403 for a project Developer who is not a Reporter of the group; 404 for a label the project does not own; 401 anonymous", async () => {
        const { group, a } = await world();
        await made("POST", `/projects/${a.id}/labels`, { name: "bug", color: "#000000" });
        await made("POST", `/groups/${group.id}/labels`, { name: "group-only", color: "#000000" });
        const personal = await w.t.createProject({ namespaceId: w.t.users.alice.namespaceId ?? -1, path: `promo-personal-${groups}`, name: "personal", visibility: "private", creatorId: w.t.users.alice.id });
        await made("POST", `/projects/${personal.id}/labels`, { name: "bug", color: "#000000" });
        expect(await call("PUT", `/projects/${personal.id}/labels/bug/promote`, w.t.tokens.alice)).toMatchObject({ status: 400, json: { message: "Failed to promote project label to group label" } });
        expect((await call("PUT", `/projects/${a.id}/labels/bug/promote`, w.t.tokens.bob)).status).toBe(403);
        expect(await call("PUT", `/projects/${a.id}/labels/none/promote`, w.t.tokens.alice)).toMatchObject({ status: 404, json: { message: "404 Label Not Found" } });
        expect((await call("PUT", `/projects/${a.id}/labels/group-only/promote`, w.t.tokens.alice)).status).toBe(404);
        expect((await h.request("PUT", `/api/v4/projects/${a.id}/labels/bug/promote`, {})).status).toBe(401);
        expect(labelNames((await call("GET", `/projects/${a.id}/labels`, w.t.tokens.alice, undefined, { include_ancestor_groups: "false" })).json)).toEqual(["bug"]);
      });
    });

    describe("PUT /projects/:id/labels/promote", () => {
      it("the deprecated form promotes the label named by `name`", async () => {
        const { group, a } = await world();
        await made("POST", `/projects/${a.id}/labels`, { name: "legacy", color: "#000000" });
        expect(await call("PUT", `/projects/${a.id}/labels/promote`, w.t.tokens.alice, { name: "legacy" })).toMatchObject({ status: 200, json: { name: "legacy" } });
        expect(labelNames((await call("GET", `/groups/${group.id}/labels`, w.t.tokens.alice)).json)).toEqual(["legacy"]);
      });
    });
  });
};
