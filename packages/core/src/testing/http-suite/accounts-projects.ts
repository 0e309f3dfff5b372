/** `GET /projects` and `GET /projects/:id`: visibility matrix, filters, offset and keyset pagination. */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;
const paths = (json: unknown): string[] => (json as Json[]).map((p) => String(p["path_with_namespace"])).sort();

/** Projects endpoints. */
export const projectsSuite: HttpSuite = (h) => {
  describe("GET /projects and GET /projects/:id", () => {
    let t: TestForgekit;
    let carol: string;
    const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
    const list = (token?: string, query: Record<string, string> = {}) => h.request("GET", "/api/v4/projects", { headers: as(token), query });
    const one = (id: string, token?: string) => h.request("GET", `/api/v4/projects/${id}`, { headers: as(token) });

    beforeAll(async () => {
      t = await createTestForgekit({ repositoryStorages: ["default", "other"] });
      const user = await t.createUser({ username: "carol" });
      carol = (await t.createToken(user.id)).plaintext;
      await t.createProject({ namespaceId: t.groups.grp.id, path: "moved", name: "moved", visibility: "public", repositoryStorage: "other" });
      await h.serve(t.fk);
    });

    const ALL = ["alice/personal", "grp/internal-project", "grp/moved", "grp/public-project", "grp/sub/private-project", "secret/hidden"];

    it("visibility: anonymous callers see public projects only", async () => {
      expect(paths((await list()).json)).toEqual(["grp/moved", "grp/public-project"]);
    });
    it("visibility: any signed-in user also sees internal projects", async () => {
      expect(paths((await list(carol)).json)).toEqual(["grp/internal-project", "grp/moved", "grp/public-project"]);
    });
    it("visibility: members see the private projects they belong to (directly or through groups)", async () => {
      expect(paths((await list(t.tokens.bob)).json)).toEqual(["grp/internal-project", "grp/moved", "grp/public-project", "grp/sub/private-project"]);
    });
    it("visibility: administrators see every project", async () => {
      expect(paths((await list(t.tokens.root)).json)).toEqual(ALL);
    });
    it("visibility: GET /projects/:id follows the same matrix, invisible → 404 Project Not Found", async () => {
      const cases: [string, string | undefined, number][] = [
        ["grp%2Fpublic-project", undefined, 200],
        ["grp%2Finternal-project", undefined, 404],
        ["grp%2Finternal-project", carol, 200],
        ["grp%2Fsub%2Fprivate-project", carol, 404],
        ["grp%2Fsub%2Fprivate-project", t.tokens.bob, 200],
        ["alice%2Fpersonal", t.tokens.bob, 404],
        ["alice%2Fpersonal", t.tokens.alice, 200],
        ["secret%2Fhidden", t.tokens.root, 200],
      ];
      for (const [id, token, status] of cases) {
        const r = await one(id, token);
        expect([id, r.status]).toEqual([id, status]);
        if (status === 404) expect(r.json).toEqual({ message: "404 Project Not Found" });
      }
    });
    it("GET /projects/:id accepts the numeric id and answers the Project entity", async () => {
      const r = await one(String(t.projects.publicProject.id));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        id: t.projects.publicProject.id,
        name: "public-project",
        path: "public-project",
        path_with_namespace: "grp/public-project",
        name_with_namespace: "Group / public-project",
        visibility: "public",
        web_url: `${t.baseUrl}/grp/public-project`,
        http_url_to_repo: `${t.baseUrl}/grp/public-project.git`,
        ssh_url_to_repo: "git@forge.example.com:grp/public-project.git",
        namespace: { id: t.groups.grp.id, kind: "group", full_path: "grp", path: "grp", name: "Group", parent_id: null },
        _links: { self: `${t.baseUrl}/api/v4/projects/${t.projects.publicProject.id}` },
        empty_repo: true,
        archived: false,
        permissions: { project_access: null, group_access: null },
      });
      expect(r.json).not.toHaveProperty("repository_storage");
    });
    it("GET /projects/:id: unknown id, unknown path and a bare name without namespace → 404", async () => {
      for (const id of ["9999", "grp%2Fnope", "public-project"]) {
        const r = await one(id);
        expect(r.status).toBe(404);
        expect(r.json).toEqual({ message: "404 Project Not Found" });
      }
    });
    it("GET /projects/:id: permissions show the caller's project and group access", async () => {
      const bob = await one("grp%2Finternal-project", t.tokens.bob);
      expect((bob.json as Json)["permissions"]).toEqual({ project_access: { access_level: 20, notification_level: 3 }, group_access: null });
      const alice = await one("grp%2Finternal-project", t.tokens.alice);
      expect((alice.json as Json)["permissions"]).toEqual({ project_access: null, group_access: { access_level: 50, notification_level: 3 } });
    });
    it("user namespace projects show their owner", async () => {
      const r = await one("alice%2Fpersonal", t.tokens.alice);
      expect(r.json).toMatchObject({ owner: { username: "alice" }, namespace: { kind: "user", full_path: "alice", web_url: `${t.baseUrl}/alice` } });
    });
    it("filter: search matches name or path", async () => {
      expect(paths((await list(t.tokens.root, { search: "INTERNAL" })).json)).toEqual(["grp/internal-project"]);
    });
    it("filter: visibility", async () => {
      expect(paths((await list(t.tokens.root, { visibility: "private" })).json)).toEqual(["alice/personal", "grp/sub/private-project", "secret/hidden"]);
    });
    it("filter: owned lists projects in the caller's own namespace", async () => {
      expect(paths((await list(t.tokens.alice, { owned: "true" })).json)).toEqual(["alice/personal"]);
    });
    it("filter: membership lists projects the caller belongs to", async () => {
      expect(paths((await list(t.tokens.bob, { membership: "true" })).json)).toEqual(["grp/internal-project", "grp/sub/private-project"]);
    });
    it("filter: min_access_level", async () => {
      expect(paths((await list(t.tokens.bob, { min_access_level: "30" })).json)).toEqual(["grp/sub/private-project"]);
      const bad = await list(t.tokens.bob, { min_access_level: "25" });
      expect(bad.status).toBe(400);
      expect(bad.json).toEqual({ error: "min_access_level does not have a valid value" });
    });
    it("filter: repository_storage for administrators; silently ignored for others", async () => {
      expect(paths((await list(t.tokens.root, { repository_storage: "other" })).json)).toEqual(["grp/moved"]);
      expect(paths((await list(carol, { repository_storage: "other" })).json)).toEqual(["grp/internal-project", "grp/moved", "grp/public-project"]);
      const admin = await one("grp%2Fmoved", t.tokens.root);
      expect((admin.json as Json)["repository_storage"]).toBe("other");
    });
    it("simple=true answers the basic entity", async () => {
      const r = await list(undefined, { simple: "true" });
      const first = (r.json as Json[])[0] ?? {};
      expect(first).toHaveProperty("path_with_namespace");
      expect(first).toHaveProperty("namespace");
      expect(first).not.toHaveProperty("_links");
      expect(first).not.toHaveProperty("visibility");
    });
    it("order_by and sort", async () => {
      const r = await list(t.tokens.root, { order_by: "name", sort: "asc" });
      expect((r.json as Json[]).map((p) => p["name"])).toEqual(["hidden", "internal-project", "moved", "personal", "private-project", "public-project"]);
      const byId = await list(t.tokens.root, { order_by: "id", sort: "desc" });
      const ids = (byId.json as Json[]).map((p) => p["id"] as number);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });
    it("offset pagination headers", async () => {
      const r = await list(t.tokens.root, { per_page: "4", page: "2", order_by: "id", sort: "asc" });
      expect((r.json as Json[]).length).toBe(2);
      expect(r.headers["x-total"]).toBe("6");
      expect(r.headers["x-total-pages"]).toBe("2");
      expect(r.headers["x-page"]).toBe("2");
      expect(r.headers["x-per-page"]).toBe("4");
      expect(r.headers["x-prev-page"]).toBe("1");
      expect(r.headers["x-next-page"]).toBe("");
      const base = `${t.baseUrl}/api/v4/projects?order_by=id`;
      expect(r.headers["link"]).toBe(
        `<${base}&page=1&per_page=4&sort=asc>; rel="prev", <${base}&page=1&per_page=4&sort=asc>; rel="first", <${base}&page=2&per_page=4&sort=asc>; rel="last"`,
      );
    });
    it("keyset pagination by id: follow rel=next to the end, anonymous included", async () => {
      const seen: string[] = [];
      let next: string | undefined = `/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=1`;
      for (let i = 0; next !== undefined && i < 10; i += 1) {
        const r = await h.request("GET", next);
        expect(r.status).toBe(200);
        seen.push(...paths(r.json));
        expect(r.headers["x-total"]).toBeUndefined();
        const link = r.headers["link"];
        if (link === undefined) break;
        expect(link).toMatch(/; rel="next"$/);
        const url = /^<([^>]+)>/.exec(link)?.[1] ?? "";
        expect(url).toContain("id_after=");
        next = url.slice(t.baseUrl.length);
      }
      expect(seen.sort()).toEqual(["grp/moved", "grp/public-project"]);
    });
    it("keyset pagination by another order → 405", async () => {
      const r = await list(undefined, { pagination: "keyset", order_by: "name", sort: "asc" });
      expect(r.status).toBe(405);
      expect(r.json).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
    });
  });
};
