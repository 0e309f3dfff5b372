/**
 * Namespaces (reference Namespaces API, `lib/api/namespaces.rb`): the caller's namespaces, one by id
 * or path for those who can see it, and whether a path is taken (with a suggestion).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

type Row = Record<string, unknown> & { id: number; full_path: string };

export const namespacesSuite: HttpSuite = (h: HttpHarness) => {
  let t: TestForgekit;
  const get = (path: string, token?: string) => h.request("GET", `/api/v4${path}`, { headers: token === undefined ? {} : { "private-token": token } });
  const paths = async (path: string, token: string) => ((await get(path, token)).json as Row[]).map((row) => row.full_path);

  describe("namespaces", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
      // alice: Developer (not Owner) of a group of her own choosing, to tell owned_only apart.
      const joined = await t.createGroup({ name: "Joined", path: "joined", visibility: "private" });
      await t.addMember({ group: joined }, t.users.alice, AccessLevel.Developer);
    });

    describe("GET /namespaces", () => {
      it("401 without credentials", async () => {
        expect((await get("/namespaces")).status).toBe(401);
      });

      it("a user gets their own namespace and the groups of their direct memberships, by id, with pagination headers", async () => {
        const r = await get("/namespaces", t.tokens.alice);
        expect(r.status).toBe(200);
        expect(r.headers["x-total"]).toBe("4");
        expect((r.json as Row[]).map((row) => row.full_path)).toEqual(["alice", "grp", "secret", "joined"]);
        // bob's membership is of the subgroup only: its parent is not his namespace.
        expect(await paths("/namespaces", t.tokens.bob)).toEqual(["bob", "grp/sub"]);
      });

      it("the entity: basic fields for all; members_count_with_descendants only on groups the caller owns", async () => {
        const rows = (await get("/namespaces", t.tokens.alice)).json as Row[];
        expect(rows[0]).toEqual({ id: t.users.alice.namespaceId, name: "Alice Liddell", path: "alice", kind: "user", full_path: "alice", parent_id: null, avatar_url: null, web_url: `${t.baseUrl}/alice` });
        // grp: alice (Owner of grp) and bob (Developer of grp/sub).
        expect(rows[1]).toEqual({ id: t.groups.grp.id, name: "Group", path: "grp", kind: "group", full_path: "grp", parent_id: null, avatar_url: null, web_url: `${t.baseUrl}/groups/grp`, members_count_with_descendants: 2 });
        expect(rows[3]).not.toHaveProperty("members_count_with_descendants");
        const sub = ((await get("/namespaces", t.tokens.bob)).json as Row[])[1];
        expect(sub).toMatchObject({ full_path: "grp/sub", parent_id: t.groups.grp.id });
        expect(sub).not.toHaveProperty("members_count_with_descendants");
      });

      it("owned_only keeps the personal namespace and owned groups; top_level_only drops subgroups; search matches name or path", async () => {
        expect(await paths("/namespaces?owned_only=true", t.tokens.alice)).toEqual(["alice", "grp", "secret"]);
        expect(await paths("/namespaces?top_level_only=true", t.tokens.bob)).toEqual(["bob"]);
        expect(await paths("/namespaces?search=SECR", t.tokens.alice)).toEqual(["secret"]);
        expect(await paths("/namespaces?search=Group", t.tokens.alice)).toEqual(["grp"]);
      });

      it("administrators get every namespace; pages follow per_page", async () => {
        const all = await paths("/namespaces?per_page=100", t.tokens.root);
        expect(all).toEqual(expect.arrayContaining(["root", "alice", "bob", "grp", "grp/sub", "secret", "joined"]));
        const page = await get("/namespaces?per_page=2&page=2", t.tokens.root);
        expect(page.headers["x-page"]).toBe("2");
        expect((page.json as Row[]).length).toBe(2);
      });

      it("400 for a malformed boolean", async () => {
        expect((await get("/namespaces?owned_only=maybe", t.tokens.alice)).status).toBe(400);
      });
    });

    describe("GET /namespaces/:id", () => {
      it("by id or URL-encoded full path, for members of the namespace or an ancestor", async () => {
        expect((await get(`/namespaces/${t.groups.grp.id}`, t.tokens.alice)).json).toMatchObject({ id: t.groups.grp.id, members_count_with_descendants: 2 });
        const sub = await get("/namespaces/grp%2Fsub", t.tokens.alice);
        expect(sub.status).toBe(200);
        expect(sub.json).toMatchObject({ id: t.groups.sub.id, full_path: "grp/sub", members_count_with_descendants: 1 });
        expect((await get("/namespaces/bob", t.tokens.bob)).json).toMatchObject({ id: t.users.bob.namespaceId, kind: "user" });
      });

      it("404 Namespace Not Found for one the caller cannot see (even a public group they are not in), or none", async () => {
        for (const ref of [String(t.groups.grp.id), "alice", "secret", "999999", "no%2Fsuch"]) {
          expect(await get(`/namespaces/${ref}`, t.tokens.bob)).toMatchObject({ status: 404, json: { message: "404 Namespace Not Found" } });
        }
      });

      it("administrators see any namespace; anonymous callers get 401", async () => {
        expect((await get("/namespaces/alice", t.tokens.root)).status).toBe(200);
        expect((await get(`/namespaces/${t.groups.secret.id}`, t.tokens.root)).json).toMatchObject({ members_count_with_descendants: 1 });
        expect((await get(`/namespaces/${t.groups.grp.id}`)).status).toBe(401);
      });
    });

    describe("GET /namespaces/:id/exists", () => {
      it("a taken top-level path (case-insensitively) exists and gets the first free numbered suggestion", async () => {
        expect((await get("/namespaces/grp/exists", t.tokens.bob)).json).toEqual({ exists: true, suggests: ["grp1"] });
        expect((await get("/namespaces/GRP/exists", t.tokens.bob)).json).toEqual({ exists: true, suggests: ["GRP1"] });
        await t.createGroup({ name: "Alice1", path: "alice1", visibility: "public" });
        expect((await get("/namespaces/alice/exists", t.tokens.bob)).json).toEqual({ exists: true, suggests: ["alice2"] });
        expect((await get("/namespaces/nothing-here/exists", t.tokens.bob)).json).toEqual({ exists: false, suggests: [] });
      });

      it("only namespaces directly under parent_id count (top-level ones without it)", async () => {
        expect((await get("/namespaces/sub/exists", t.tokens.bob)).json).toEqual({ exists: false, suggests: [] });
        expect((await get(`/namespaces/sub/exists?parent_id=${t.groups.grp.id}`, t.tokens.bob)).json).toEqual({ exists: true, suggests: ["sub1"] });
        expect((await get(`/namespaces/grp/exists?parent_id=${t.groups.grp.id}`, t.tokens.bob)).json).toEqual({ exists: false, suggests: [] });
        expect((await get("/namespaces/sub/exists?parent_id=999999", t.tokens.bob)).json).toEqual({ exists: false, suggests: [] });
        // Beyond every id column: no parent has it (never a 500 from a database's integer range).
        for (const id of ["0", "-1", "99999999999999"]) expect(await get(`/namespaces/sub/exists?parent_id=${id}`, t.tokens.bob)).toMatchObject({ status: 200, json: { exists: false, suggests: [] } });
      });

      it("400 for a parent_id that is not an integer; 401 anonymous", async () => {
        expect((await get("/namespaces/sub/exists?parent_id=abc", t.tokens.bob)).status).toBe(400);
        expect((await get("/namespaces/grp/exists")).status).toBe(401);
      });
    });
  });
};

/** On the premium tier the entity adds `plan` (the licensed tier) for whoever may administer the namespace. */
export const namespacesTierSuite: HttpSuite = (h: HttpHarness) => {
  describe("GET /namespaces on the premium tier", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await createTestForgekit({ tier: "premium" });
      await h.serve(t.fk);
    });

    it("plan for the owner of the namespace and administrators, not for a Developer", async () => {
      const alice = (await h.request("GET", "/api/v4/namespaces", { headers: { "private-token": t.tokens.alice } })).json as Row[];
      expect(alice.map((row) => row["plan"])).toEqual(["premium", "premium", "premium"]);
      const bob = (await h.request("GET", "/api/v4/namespaces", { headers: { "private-token": t.tokens.bob } })).json as Row[];
      expect(bob.map((row) => [row.full_path, row["plan"]])).toEqual([["bob", "premium"], ["grp/sub", undefined]]);
    });
  });
};
