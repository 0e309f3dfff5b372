/** `GET /groups` and `GET /groups/:id`: visibility, filters, offset and keyset pagination. */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;
const fullPaths = (json: unknown): string[] => (json as Json[]).map((g) => String(g["full_path"])).sort();
/**
 * The groups the suite's `beforeAll` builds (the seeded world's and this suite's own). Other tests
 * add groups of their own (keyset pagination's public ones, say); a list every caller may see is
 * narrowed to these, in the order it came.
 */
const SEEDED = new Set(["grp", "grp/sub", "secret", "outer", "outer/inner", "open"]);
const seeded = (paths: readonly unknown[]): unknown[] => paths.filter((p) => SEEDED.has(String(p)));

/** Groups endpoints. */
export const groupsSuite: HttpSuite = (h) => {
  describe("GET /groups and GET /groups/:id", () => {
    let t: TestForgekit;
    let dave: string;
    let made = 0;
    const as = (token?: string) => (token === undefined ? {} : { "private-token": token });
    const list = (token?: string, query: Record<string, string> = {}) => h.request("GET", "/api/v4/groups", { headers: as(token), query });
    const one = (id: string, token?: string) => h.request("GET", `/api/v4/groups/${id}`, { headers: as(token) });

    beforeAll(async () => {
      t = await createTestForgekit();
      // A private group whose only member belongs to a private subgroup of it.
      const user = await t.createUser({ username: "dave" });
      dave = (await t.createToken(user.id)).plaintext;
      const outer = await t.createGroup({ name: "Outer", path: "outer", visibility: "private" });
      const inner = await t.createGroup({ name: "Inner", path: "inner", parentId: outer.id, visibility: "private" });
      await t.addMember({ group: inner }, user, AccessLevel.Guest);
      await t.createGroup({ name: "Open", path: "open", visibility: "internal" });
      await h.serve(t.fk);
    });

    it("visibility: anonymous callers see public groups", async () => {
      expect(seeded(fullPaths((await list()).json))).toEqual(["grp"]);
    });
    it("visibility: a signed-in user sees only groups they belong to unless all_available", async () => {
      expect(fullPaths((await list(t.tokens.bob)).json)).toEqual(["grp/sub"]);
      expect(seeded(fullPaths((await list(t.tokens.bob, { all_available: "true" })).json))).toEqual(["grp", "grp/sub", "open"]);
    });
    it("visibility: membership is inherited by subgroups", async () => {
      expect(fullPaths((await list(t.tokens.alice)).json)).toEqual(["grp", "grp/sub", "secret"]);
    });
    it("visibility: administrators see every group; all_available=false limits them to their own", async () => {
      expect(seeded(fullPaths((await list(t.tokens.root)).json))).toEqual(["grp", "grp/sub", "open", "outer", "outer/inner", "secret"]);
      expect(fullPaths((await list(t.tokens.root, { all_available: "false" })).json)).toEqual([]);
    });
    it("visibility: GET /groups/:id, invisible → 404 Group Not Found", async () => {
      const cases: [string, string | undefined, number][] = [
        ["grp", undefined, 200],
        ["grp%2Fsub", undefined, 404],
        ["grp%2Fsub", t.tokens.bob, 200],
        ["open", undefined, 404],
        ["open", t.tokens.bob, 200],
        ["secret", t.tokens.bob, 404],
        ["secret", t.tokens.alice, 200],
        ["secret", t.tokens.root, 200],
        ["outer%2Finner", dave, 200],
        // A member of a private subgroup can see its private parent.
        ["outer", dave, 200],
        ["outer", t.tokens.bob, 404],
        ["9999", t.tokens.root, 404],
        [String(t.users.alice.namespaceId), t.tokens.root, 404],
      ];
      for (const [id, token, status] of cases) {
        const r = await one(id, token);
        expect([id, r.status]).toEqual([id, status]);
        if (status === 404) expect(r.json).toEqual({ message: "404 Group Not Found" });
      }
    });
    it("GET /groups/:id answers the group with the projects the caller may see", async () => {
      const r = await one(String(t.groups.grp.id));
      expect(r.status).toBe(200);
      const body = r.json as Json;
      expect(body).toMatchObject({
        id: t.groups.grp.id,
        name: "Group",
        path: "grp",
        full_path: "grp",
        full_name: "Group",
        visibility: "public",
        parent_id: null,
        web_url: `${t.baseUrl}/groups/grp`,
        created_at: "2024-05-01T12:00:00.000Z",
        shared_projects: [],
      });
      expect((body["projects"] as Json[]).map((p) => p["path_with_namespace"])).toEqual(["grp/public-project"]);
      const member = await one("grp", t.tokens.alice);
      expect(((member.json as Json)["projects"] as Json[]).map((p) => p["path_with_namespace"])).toEqual(["grp/public-project", "grp/internal-project"]);
      const sub = await one("grp%2Fsub", t.tokens.bob);
      expect(sub.json).toMatchObject({ full_name: "Group / Sub", parent_id: t.groups.grp.id });
      const bare = await one("grp", undefined);
      expect(bare.json).toHaveProperty("projects");
      const without = await h.request("GET", "/api/v4/groups/grp", { query: { with_projects: "false" } });
      expect(without.json).not.toHaveProperty("projects");
    });
    it("filter: search", async () => {
      expect(fullPaths((await list(t.tokens.root, { search: "SEC" })).json)).toEqual(["secret"]);
    });
    it("filter: owned", async () => {
      expect(fullPaths((await list(t.tokens.alice, { owned: "true" })).json)).toEqual(["grp", "grp/sub", "secret"]);
      expect(fullPaths((await list(t.tokens.bob, { owned: "true" })).json)).toEqual([]);
    });
    it("filter: min_access_level", async () => {
      expect(fullPaths((await list(t.tokens.bob, { min_access_level: "30" })).json)).toEqual(["grp/sub"]);
      expect(fullPaths((await list(t.tokens.bob, { min_access_level: "40" })).json)).toEqual([]);
    });
    it("filter: top_level_only", async () => {
      expect(seeded(fullPaths((await list(t.tokens.root, { top_level_only: "true" })).json))).toEqual(["grp", "open", "outer", "secret"]);
    });
    it("order_by and sort", async () => {
      const r = await list(t.tokens.root, { order_by: "path", sort: "desc", top_level_only: "true" });
      expect(seeded((r.json as Json[]).map((g) => g["path"]))).toEqual(["secret", "outer", "open", "grp"]);
    });
    it("offset pagination headers", async () => {
      // A caller of the test's own, a member of six private groups of its own and of nothing else:
      // the six are all the list holds, whatever groups other tests add.
      const n = ++made;
      const user = await t.createUser({ username: `paged-${n}` });
      const token = (await t.createToken(user.id)).plaintext;
      for (let i = 1; i <= 6; i += 1) {
        const group = await t.createGroup({ name: `Paged ${n}-${i}`, path: `paged-${n}-${i}`, visibility: "private" });
        await t.addMember({ group }, user, AccessLevel.Guest);
      }
      const r = await list(token, { per_page: "2" });
      expect((r.json as Json[]).length).toBe(2);
      expect(r.headers["x-total"]).toBe("6");
      expect(r.headers["x-total-pages"]).toBe("3");
      expect(r.headers["x-next-page"]).toBe("2");
      expect(r.headers["x-prev-page"]).toBe("");
      expect(r.headers["link"]).toContain(`<${t.baseUrl}/api/v4/groups?page=2&per_page=2>; rel="next"`);
      expect(r.headers["link"]).toContain(`<${t.baseUrl}/api/v4/groups?page=3&per_page=2>; rel="last"`);
    });
    it("keyset pagination by name ascending works for anonymous callers", async () => {
      // Public groups of the test's own, named to sort around the seeded "Group" (names compare case-insensitively).
      const n = ++made;
      const own = ["alpha", "beta", "gamma"].map((word) => `${word} ${n}`);
      for (const name of own) await t.createGroup({ name, path: name.replace(" ", "-"), visibility: "public" });
      const names: string[] = [];
      let next: string | undefined = "/api/v4/groups?pagination=keyset&order_by=name&sort=asc&per_page=2";
      for (let i = 0; next !== undefined && i < 10; i += 1) {
        const r = await h.request("GET", next);
        expect(r.status).toBe(200);
        names.push(...(r.json as Json[]).map((g) => g["name"] as string));
        const link = r.headers["link"];
        next = link === undefined ? undefined : (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? "").slice(t.baseUrl.length);
        if (next !== undefined) expect(next).toContain("cursor=");
      }
      expect(names.filter((name) => own.includes(name) || name === "Group")).toEqual([...own, "Group"]);
    });
    it("keyset pagination with another order → 405", async () => {
      const r = await list(undefined, { pagination: "keyset", order_by: "name", sort: "desc" });
      expect(r.status).toBe(405);
      expect(r.json).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
    });
    it("keyset pagination with a cursor that does not decode → 400", async () => {
      const r = await list(undefined, { pagination: "keyset", order_by: "name", sort: "asc", cursor: "bm90LWEtY3Vyc29y" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "cursor is invalid" });
    });
  });
};
