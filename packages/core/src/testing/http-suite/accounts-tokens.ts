/** Personal access tokens: `/personal_access_tokens[/:id|/self][/rotate]`, `/users/:id/personal_access_tokens`, `/user/personal_access_tokens`. */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const personalAccessTokensSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token: string) => ({ "private-token": token });
  const names = (json: unknown) => (json as Json[]).map((x) => x["name"]);
  const works = async (token: string) => (await h.request("GET", "/api/v4/user", { headers: as(token) })).status === 200;

  describe("GET /personal_access_tokens", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await t.createToken(t.users.alice.id, { name: "second", scopes: ["read_api"] });
      await t.createToken(t.users.alice.id, { name: "support", kind: "impersonation" });
      await h.serve(t.fk);
    });
    it("a user sees their own personal tokens (not impersonation tokens made for them), without secrets", async () => {
      const r = await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      expect(names(r.json)).toEqual(["alice token", "second"]);
      const [first] = r.json as Json[];
      expect(first).toEqual({
        id: expect.any(Number),
        name: "alice token",
        revoked: false,
        created_at: "2024-05-01T12:00:00.000Z",
        description: null,
        scopes: ["api"],
        user_id: t.users.alice.id,
        last_used_at: "2024-05-01T12:00:00.000Z",
        active: true,
        expires_at: null,
        last_used_ips: [],
      });
    });
    it("administrators see every token, or one user's with user_id; an unknown user_id → 404", async () => {
      const all = await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.root) });
      expect(names(all.json)).toEqual(["root token", "alice token", "bob token", "second", "support"]);
      const alice = await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.root), query: { user_id: String(t.users.alice.id) } });
      expect(names(alice.json)).toEqual(["alice token", "second", "support"]);
      expect((await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.root), query: { user_id: "9999" } })).status).toBe(404);
    });
    it("a non-administrator asking for another user's tokens → 401 (reference)", async () => {
      const r = await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.alice), query: { user_id: String(t.users.bob.id) } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: "401 Unauthorized" });
    });
    it("filters by state, revoked and search", async () => {
      const q = (query: Record<string, string>) => h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.alice), query });
      expect(names((await q({ search: "SEC" })).json)).toEqual(["second"]);
      expect(names((await q({ state: "inactive" })).json)).toEqual([]);
      expect(names((await q({ revoked: "false" })).json)).toEqual(["alice token", "second"]);
      expect((await q({ state: "gone" })).json).toEqual({ error: "state does not have a valid value" });
    });
    it("anonymous → 401", async () => {
      expect((await h.request("GET", "/api/v4/personal_access_tokens")).status).toBe(401);
    });
    it("with sudo the list is the target's, and `self` is no token of theirs (404)", async () => {
      const r = await h.request("GET", "/api/v4/personal_access_tokens", { headers: { ...as(t.tokens.root), sudo: "bob" } });
      expect(names(r.json)).toEqual(["bob token"]);
      expect((await h.request("GET", "/api/v4/personal_access_tokens/self", { headers: { ...as(t.tokens.root), sudo: "bob" } })).status).toBe(404);
    });
  });

  describe("GET|DELETE /personal_access_tokens/self", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("GET shows the token the request authenticated with, whatever its scope", async () => {
      const repoOnly = await t.createToken(t.users.bob.id, { name: "repo only", scopes: ["read_repository"] });
      const r = await h.request("GET", "/api/v4/personal_access_tokens/self", { headers: as(repoOnly.plaintext) });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: repoOnly.token.id, name: "repo only", scopes: ["read_repository"] });
      expect((r.json as Json)["token"]).toBeUndefined();
    });
    it("DELETE revokes the token the request authenticated with (204); it stops working", async () => {
      const own = await t.createToken(t.users.bob.id, { name: "to revoke", scopes: ["read_user"] });
      const r = await h.request("DELETE", "/api/v4/personal_access_tokens/self", { headers: as(own.plaintext) });
      expect(r.status).toBe(204);
      expect(await works(own.plaintext)).toBe(false);
      expect(await works(t.tokens.bob)).toBe(true);
    });
    it("anonymous → 401", async () => {
      expect((await h.request("GET", "/api/v4/personal_access_tokens/self")).status).toBe(401);
    });
  });

  describe("GET|DELETE /personal_access_tokens/:id", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("the owner and administrators see a token; another user gets 404", async () => {
      const own = await t.createToken(t.users.bob.id, { name: "mine" });
      const path = `/api/v4/personal_access_tokens/${own.token.id}`;
      expect(((await h.request("GET", path, { headers: as(t.tokens.bob) })).json as Json)["name"]).toBe("mine");
      expect((await h.request("GET", path, { headers: as(t.tokens.root) })).status).toBe(200);
      const other = await h.request("GET", path, { headers: as(t.tokens.alice) });
      expect(other.status).toBe(404);
      expect(other.json).toEqual({ message: "404 Not Found" });
    });
    it("DELETE by the owner revokes (204); by another user → 404 and the token keeps working", async () => {
      const own = await t.createToken(t.users.bob.id, { name: "revocable" });
      const path = `/api/v4/personal_access_tokens/${own.token.id}`;
      expect((await h.request("DELETE", path, { headers: as(t.tokens.alice) })).status).toBe(404);
      expect(await works(own.plaintext)).toBe(true);
      expect((await h.request("DELETE", path, { headers: as(t.tokens.bob) })).status).toBe(204);
      expect(await works(own.plaintext)).toBe(false);
      expect(((await h.request("GET", path, { headers: as(t.tokens.bob) })).json as Json)["revoked"]).toBe(true);
    });
    it("administrators revoke anyone's token; an unknown id → 404", async () => {
      const own = await t.createToken(t.users.alice.id, { name: "admin revokes" });
      expect((await h.request("DELETE", `/api/v4/personal_access_tokens/${own.token.id}`, { headers: as(t.tokens.root) })).status).toBe(204);
      expect(await works(own.plaintext)).toBe(false);
      expect((await h.request("DELETE", "/api/v4/personal_access_tokens/9999", { headers: as(t.tokens.root) })).status).toBe(404);
    });
    it("a read_api token cannot revoke (403 insufficient_scope)", async () => {
      const reader = await t.createToken(t.users.bob.id, { scopes: ["read_api"] });
      const r = await h.request("DELETE", `/api/v4/personal_access_tokens/${reader.token.id}`, { headers: as(reader.plaintext) });
      expect(r.status).toBe(403);
      expect(await works(reader.plaintext)).toBe(true);
    });
  });

  describe("POST /personal_access_tokens/:id/rotate and /self/rotate", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("rotation revokes the token and returns its successor once (200): same name and scopes, a week's expiry", async () => {
      const old = await t.createToken(t.users.bob.id, { name: "ci", scopes: ["api", "read_repository"] });
      const r = await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(200);
      const body = r.json as Json;
      expect(body).toMatchObject({ name: "ci", scopes: ["api", "read_repository"], user_id: t.users.bob.id, active: true, revoked: false, expires_at: "2024-05-08" });
      expect(body["id"]).not.toBe(old.token.id);
      expect(body["token"]).toMatch(/^fkpat-/);
      expect(await works(old.plaintext)).toBe(false);
      expect(await works(body["token"] as string)).toBe(true);
    });
    it("expires_at sets the successor's expiry; a past date → 400 with the message map", async () => {
      const old = await t.createToken(t.users.bob.id, { name: "dated" });
      const past = await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.bob), json: { expires_at: "2020-01-01" } });
      expect(past.status).toBe(400);
      expect(past.json).toEqual({ message: { expires_at: ["must be in the future"] } });
      expect(await works(old.plaintext)).toBe(true);
      const r = await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.bob), json: { expires_at: "2024-12-31" } });
      expect((r.json as Json)["expires_at"]).toBe("2024-12-31");
    });
    it("a revoked token → 400 Token already revoked, and the tokens rotated from it are revoked too (the family leaked)", async () => {
      const old = await t.createToken(t.users.bob.id, { name: "twice" });
      const first = (await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.bob) })).json as Json;
      expect(await works(first["token"] as string)).toBe(true);
      const r = await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.bob) });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: "400 Bad request - Token already revoked" });
      expect(await works(first["token"] as string)).toBe(false);
    });
    it("another user's token → 404; an administrator may rotate it", async () => {
      const old = await t.createToken(t.users.bob.id, { name: "bobs" });
      expect((await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.alice) })).status).toBe(404);
      expect((await h.request("POST", `/api/v4/personal_access_tokens/${old.token.id}/rotate`, { headers: as(t.tokens.root) })).status).toBe(200);
    });
    it("/self/rotate rotates the calling token with the self_rotate scope; other scopes → 403", async () => {
      const own = await t.createToken(t.users.bob.id, { name: "selfie", scopes: ["self_rotate", "read_repository"] });
      const r = await h.request("POST", "/api/v4/personal_access_tokens/self/rotate", { headers: as(own.plaintext) });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ name: "selfie", scopes: ["self_rotate", "read_repository"] });
      expect((await h.request("GET", "/api/v4/personal_access_tokens/self", { headers: as(own.plaintext) })).status).toBe(401);
      const reader = await t.createToken(t.users.bob.id, { scopes: ["read_repository"] });
      expect((await h.request("POST", "/api/v4/personal_access_tokens/self/rotate", { headers: as(reader.plaintext) })).status).toBe(403);
    });
  });

  describe("POST /users/:id/personal_access_tokens", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const path = () => `/api/v4/users/${t.users.bob.id}/personal_access_tokens`;
    it("an administrator creates a token for the user (201, shown once) that acts as the user", async () => {
      const r = await h.request("POST", path(), { headers: as(t.tokens.root), json: { name: "made", scopes: ["api"], expires_at: "2024-06-01" } });
      expect(r.status).toBe(201);
      const body = r.json as Json;
      expect(body).toMatchObject({ name: "made", scopes: ["api"], user_id: t.users.bob.id, expires_at: "2024-06-01", revoked: false, active: true });
      const me = await h.request("GET", "/api/v4/user", { headers: as(body["token"] as string) });
      expect((me.json as Json)["username"]).toBe("bob");
      const listed = await h.request("GET", "/api/v4/personal_access_tokens", { headers: as(t.tokens.bob) });
      expect((listed.json as Json[]).every((x) => x["token"] === undefined)).toBe(true);
    });
    it("scopes are required and must be known; sudo only for administrators' own tokens", async () => {
      expect((await h.request("POST", path(), { headers: as(t.tokens.root), json: { name: "x" } })).json).toEqual({ message: '400 (Bad request) "scopes" not given' });
      const unknown = await h.request("POST", path(), { headers: as(t.tokens.root), json: { name: "x", scopes: ["everything"] } });
      expect(unknown.status).toBe(400);
      expect(unknown.json).toEqual({ message: { scopes: ["can only contain available scopes"] } });
      const sudo = await h.request("POST", path(), { headers: as(t.tokens.root), json: { name: "x", scopes: ["sudo"] } });
      expect(sudo.json).toEqual({ message: { scopes: ["sudo can only be enabled for administrators"] } });
    });
    it("non-administrator → 403; unknown user → 404 User Not Found", async () => {
      expect((await h.request("POST", path(), { headers: as(t.tokens.alice), json: { name: "x", scopes: ["api"] } })).status).toBe(403);
      const r = await h.request("POST", "/api/v4/users/9999/personal_access_tokens", { headers: as(t.tokens.root), json: { name: "x", scopes: ["api"] } });
      expect(r.json).toEqual({ message: "404 User Not Found" });
    });
  });

  describe("POST /user/personal_access_tokens", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("a user creates a k8s_proxy token for themselves (201) that expires at the end of the day", async () => {
      const r = await h.request("POST", "/api/v4/user/personal_access_tokens", { headers: as(t.tokens.bob), json: { name: "agent", scopes: ["k8s_proxy"] } });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({ name: "agent", scopes: ["k8s_proxy"], user_id: t.users.bob.id, expires_at: "2024-05-01", token: expect.stringMatching(/^fkpat-/) });
    });
    it("any other scope → 400 scopes does not have a valid value", async () => {
      const r = await h.request("POST", "/api/v4/user/personal_access_tokens", { headers: as(t.tokens.bob), json: { name: "wide", scopes: ["api"] } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "scopes does not have a valid value" });
    });
    it("anonymous → 401", async () => {
      expect((await h.request("POST", "/api/v4/user/personal_access_tokens", { json: { name: "x", scopes: ["k8s_proxy"] } })).status).toBe(401);
    });
  });
};
