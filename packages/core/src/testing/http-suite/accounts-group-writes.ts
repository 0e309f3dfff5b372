/** Group writes and sublists: `POST/PUT/DELETE /groups[/:id]`, `/groups/:id/subgroups`, `/descendant_groups`, `/projects`. */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;
const paths = (json: unknown, key = "full_path"): string[] => (json as Json[]).map((g) => String(g[key])).sort();

export const groupWritesSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
  const fresh = async () => {
    t = await createTestForgekit();
    await h.serve(t.fk);
  };

  describe("POST /groups", () => {
    beforeAll(fresh);
    it("creates a top-level group (201) whose creator is its Owner", async () => {
      const r = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.bob), json: { name: "Team", path: "team", visibility: "internal", description: "d" } });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ name: "Team", path: "team", full_path: "team", visibility: "internal", description: "d", parent_id: null, projects: [] });
      const id = (r.json as Json)["id"] as number;
      expect(await t.store.members.find("namespace", id, t.users.bob.id)).toMatchObject({ accessLevel: AccessLevel.Owner });
      expect(await t.fk.config.repositoryStorage.exists("default", { kind: "group-wiki", id })).toBe(true);
    });
    it("a subgroup needs Maintainer on the parent: Developer → 403, invisible parent → 404", async () => {
      const body = { name: "Sub2", path: "sub2", parent_id: t.groups.grp.id };
      expect((await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.alice), json: body })).status).toBe(201);
      const dev = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.bob), json: { ...body, path: "sub3", parent_id: t.groups.sub.id } });
      expect(dev.status).toBe(403);
      const hidden = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.bob), json: { ...body, path: "sub4", parent_id: t.groups.secret.id } });
      expect([hidden.status, hidden.json]).toEqual([404, { message: "404 Group Not Found" }]);
    });
    it("validation: a taken path, a bad path, a subgroup more open than its parent → 400 with the message map", async () => {
      const taken = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.alice), json: { name: "X", path: "GRP" } });
      expect([taken.status, taken.json]).toEqual([400, { message: { path: ["has already been taken"] } }]);
      const bad = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.alice), json: { name: "", path: "-bad" } });
      expect(bad.status).toBe(400);
      expect(Object.keys((bad.json as { message: Json }).message).sort()).toEqual(["name", "path"]);
      const open = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.alice), json: { name: "O", path: "o", parent_id: t.groups.secret.id, visibility: "public" } });
      expect([open.status, open.json]).toEqual([400, { message: { visibility_level: ["public is not allowed since the parent group has a private visibility."] } }]);
    });
    it("anonymous → 401; missing name → 400", async () => {
      expect((await h.request("POST", "/api/v4/groups", { json: { name: "A", path: "a" } })).status).toBe(401);
      const missing = await h.request("POST", "/api/v4/groups", { headers: as(t.tokens.alice), json: { path: "a" } });
      expect([missing.status, missing.json]).toEqual([400, { message: '400 (Bad request) "name" not given' }]);
    });
  });

  describe("PUT /groups/:id", () => {
    beforeAll(fresh);
    it("an Owner changes name, description and visibility (200, GroupDetail)", async () => {
      const r = await h.request("PUT", "/api/v4/groups/secret", { headers: as(t.tokens.alice), json: { name: "Secret 2", description: "new", visibility: "internal" } });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: t.groups.secret.id, name: "Secret 2", description: "new", visibility: "internal", full_path: "secret" });
    });
    it("a group cannot be closed below a subgroup's or project's visibility", async () => {
      const r = await h.request("PUT", `/api/v4/groups/${t.groups.grp.id}`, { headers: as(t.tokens.alice), json: { visibility: "private" } });
      expect(r.status).toBe(400);
      expect((r.json as { message: { visibility_level: string[] } }).message.visibility_level[0]).toMatch(/^private is not allowed since/);
    });
    it("permissions: a Developer of a visible group → 403, an invisible group → 404, anonymous → 401", async () => {
      expect((await h.request("PUT", "/api/v4/groups/grp%2Fsub", { headers: as(t.tokens.bob), json: { name: "n" } })).status).toBe(403);
      expect((await h.request("PUT", "/api/v4/groups/outer", { headers: as(t.tokens.bob), json: { name: "n" } })).status).toBe(404);
      expect((await h.request("PUT", "/api/v4/groups/grp", { json: { name: "n" } })).status).toBe(401);
    });
  });

  describe("DELETE /groups/:id", () => {
    beforeAll(fresh);
    it("permissions: a Developer → 403; an invisible group → 404", async () => {
      expect((await h.request("DELETE", "/api/v4/groups/grp%2Fsub", { headers: as(t.tokens.bob) })).status).toBe(403);
      expect((await h.request("DELETE", "/api/v4/groups/secret", { headers: as(t.tokens.bob) })).status).toBe(404);
    });
    it("an Owner deletes the group with its subgroups, projects and repositories (202)", async () => {
      const r = await h.request("DELETE", "/api/v4/groups/grp", { headers: as(t.tokens.alice) });
      expect([r.status, r.json]).toEqual([202, { message: "202 Accepted" }]);
      expect((await h.request("GET", "/api/v4/groups/grp", { headers: as(t.tokens.root) })).status).toBe(404);
      expect((await h.request("GET", `/api/v4/projects/${t.projects.privateProject.id}`, { headers: as(t.tokens.root) })).status).toBe(404);
      const repos = t.fk.config.repositoryStorage;
      expect(await repos.exists("default", { kind: "group-wiki", id: t.groups.sub.id })).toBe(false);
      expect(await repos.exists("default", { kind: "project", id: t.projects.publicProject.id })).toBe(false);
      expect(await repos.exists("default", { kind: "project", id: t.projects.hidden.id })).toBe(true);
    });
  });

  describe("GET /groups/:id/subgroups and /descendant_groups", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await t.createGroup({ name: "Deep", path: "deep", parentId: t.groups.sub.id, visibility: "private" });
      await t.createGroup({ name: "Open", path: "open", parentId: t.groups.grp.id, visibility: "public" });
      await h.serve(t.fk);
    });
    it("subgroups: direct children the caller may see", async () => {
      expect(paths((await h.request("GET", "/api/v4/groups/grp/subgroups")).json)).toEqual(["grp/open"]);
      expect(paths((await h.request("GET", "/api/v4/groups/grp/subgroups", { headers: as(t.tokens.bob) })).json)).toEqual(["grp/open", "grp/sub"]);
    });
    it("descendant_groups: every depth, search and sort", async () => {
      expect(paths((await h.request("GET", "/api/v4/groups/grp/descendant_groups", { headers: as(t.tokens.alice) })).json)).toEqual(["grp/open", "grp/sub", "grp/sub/deep"]);
      const searched = await h.request("GET", "/api/v4/groups/grp/descendant_groups", { headers: as(t.tokens.alice), query: { search: "dee" } });
      expect(paths(searched.json)).toEqual(["grp/sub/deep"]);
      const sorted = await h.request("GET", "/api/v4/groups/grp/descendant_groups", { headers: as(t.tokens.alice), query: { order_by: "name", sort: "desc" } });
      expect((sorted.json as Json[]).map((g) => g["name"])).toEqual(["Sub", "Open", "Deep"]);
    });
    it("an invisible group → 404", async () => {
      expect((await h.request("GET", "/api/v4/groups/secret/subgroups", { headers: as(t.tokens.bob) })).status).toBe(404);
      expect((await h.request("GET", "/api/v4/groups/secret/descendant_groups")).status).toBe(404);
    });
  });

  describe("GET /groups/:id/projects", () => {
    beforeAll(fresh);
    it("lists the group's projects the caller may see; include_subgroups adds the subgroups'", async () => {
      expect(paths((await h.request("GET", "/api/v4/groups/grp/projects")).json, "path_with_namespace")).toEqual(["grp/public-project"]);
      expect(paths((await h.request("GET", "/api/v4/groups/grp/projects", { headers: as(t.tokens.bob) })).json, "path_with_namespace")).toEqual(["grp/internal-project", "grp/public-project"]);
      const all = await h.request("GET", "/api/v4/groups/grp/projects", { headers: as(t.tokens.alice), query: { include_subgroups: "true" } });
      expect(paths(all.json, "path_with_namespace")).toEqual(["grp/internal-project", "grp/public-project", "grp/sub/private-project"]);
    });
    it("filters: visibility, search, order_by/sort, simple; pagination headers", async () => {
      const q = (query: Record<string, string>) => h.request("GET", "/api/v4/groups/grp/projects", { headers: as(t.tokens.alice), query });
      expect(paths((await q({ visibility: "internal" })).json, "path")).toEqual(["internal-project"]);
      expect(paths((await q({ search: "publ" })).json, "path")).toEqual(["public-project"]);
      expect(((await q({ order_by: "path", sort: "asc" })).json as Json[]).map((p) => p["path"])).toEqual(["internal-project", "public-project"]);
      const simple = await q({ simple: "true", per_page: "1" });
      expect(Object.keys((simple.json as Json[])[0] ?? {})).not.toContain("visibility");
      expect(simple.headers["x-total"]).toBe("2");
      expect(simple.headers["x-next-page"]).toBe("2");
    });
  });
};
