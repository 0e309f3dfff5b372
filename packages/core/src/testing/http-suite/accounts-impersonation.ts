/** Administrator-only impersonation tokens: `/users/:user_id/impersonation_tokens[/:id]`. */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

/** Impersonation token endpoints. */
export const impersonationTokensSuite: HttpSuite = (h) => {
  describe("impersonation tokens", () => {
    let t: TestForgekit;
    let base: string;
    const root = () => ({ "private-token": t.tokens.root });
    let impersonated = 0;

    beforeAll(async () => {
      t = await createTestForgekit();
      base = `/api/v4/users/${t.users.bob.id}/impersonation_tokens`;
      await h.serve(t.fk);
    });

    it("anonymous → 401, non-administrator → 403 Forbidden, on every route", async () => {
      for (const [method, path] of [["GET", base], ["POST", base], ["GET", `${base}/1`], ["DELETE", `${base}/1`]] as const) {
        const anon = await h.request(method, path, method === "POST" ? { json: { name: "x" } } : {});
        expect([method, path, anon.status]).toEqual([method, path, 401]);
        expect(anon.json).toEqual({ message: "401 Unauthorized" });
        const user = await h.request(method, path, { headers: { "private-token": t.tokens.alice }, ...(method === "POST" ? { json: { name: "x" } } : {}) });
        expect([method, path, user.status]).toEqual([method, path, 403]);
        expect(user.json).toEqual({ message: "403 Forbidden" });
      }
    });
    it("POST creates a token (201) shown once with its plaintext; it acts as the user", async () => {
      const r = await h.request("POST", base, { headers: root(), json: { name: "support", scopes: ["api", "read_user"], expires_at: "2024-06-01" } });
      expect(r.status).toBe(201);
      const body = r.json as Json;
      expect(body).toMatchObject({
        name: "support",
        revoked: false,
        created_at: "2024-05-01T12:00:00.000Z",
        description: null,
        scopes: ["api", "read_user"],
        user_id: t.users.bob.id,
        last_used_at: null,
        active: true,
        expires_at: "2024-06-01",
        last_used_ips: [],
        impersonation: true,
      });
      expect(body["token"]).toMatch(/^fkpat-[A-Za-z0-9_-]{27}$/);
      const me = await h.request("GET", "/api/v4/user", { headers: { "private-token": body["token"] as string } });
      expect((me.json as Json)["username"]).toBe("bob");
      const row = await t.store.accessTokens.findById(body["id"] as number);
      expect(row?.digest).not.toBe(body["token"]);
    });
    it("POST accepts comma-separated scopes (form and query)", async () => {
      const r = await h.request("POST", base, { headers: root(), query: { name: "csv", scopes: "api,read_user" } });
      expect(r.status).toBe(201);
      expect((r.json as Json)["scopes"]).toEqual(["api", "read_user"]);
      const form = await h.request("POST", base, {
        headers: { ...root(), "content-type": "application/x-www-form-urlencoded" },
        body: "name=form&scopes[]=read_api&scopes[]=read_user",
      });
      expect((form.json as Json)["scopes"]).toEqual(["read_api", "read_user"]);
    });
    it("POST without name → 400 \"name\" not given", async () => {
      const r = await h.request("POST", base, { headers: root(), json: { scopes: ["api"] } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: '400 (Bad request) "name" not given' });
    });
    it("POST with a malformed expires_at → 400 expires_at is invalid", async () => {
      const r = await h.request("POST", base, { headers: root(), json: { name: "x", scopes: ["api"], expires_at: "tomorrow" } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "expires_at is invalid" });
    });
    it("POST validation: scopes required and known, expiry in the future", async () => {
      const none = await h.request("POST", base, { headers: root(), json: { name: "x" } });
      expect(none.status).toBe(400);
      expect(none.json).toEqual({ message: { scopes: ["can't be blank"] } });
      const unknown = await h.request("POST", base, { headers: root(), json: { name: "x", scopes: ["everything"] } });
      expect(unknown.json).toEqual({ message: { scopes: ["can only contain available scopes"] } });
      const past = await h.request("POST", base, { headers: root(), json: { name: "x", scopes: ["api"], expires_at: "2024-04-30" } });
      expect(past.json).toEqual({ message: { expires_at: ["must be in the future"] } });
    });
    it("an unknown user → 404 User Not Found", async () => {
      const r = await h.request("GET", "/api/v4/users/9999/impersonation_tokens", { headers: root() });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 User Not Found" });
    });
    it("GET lists the user's impersonation tokens with pagination headers and a state filter", async () => {
      // A user of the test's own with two impersonation tokens, one of them revoked: other tests make and revoke bob's.
      const user = await t.createUser({ username: `impersonated${++impersonated}` });
      const listed = `/api/v4/users/${user.id}/impersonation_tokens`;
      await t.createToken(user.id, { kind: "impersonation", name: "kept" });
      const made = await t.createToken(user.id, { kind: "impersonation", name: "to revoke" });
      await h.request("DELETE", `${listed}/${made.token.id}`, { headers: root() });
      const all = await h.request("GET", listed, { headers: root() });
      expect(all.status).toBe(200);
      const tokens = all.json as Json[];
      expect(tokens.every((tk) => tk["impersonation"] === true && tk["user_id"] === user.id)).toBe(true);
      expect(tokens.some((tk) => tk["token"] !== undefined)).toBe(false);
      expect(all.headers["x-total"]).toBe(String(tokens.length));
      const active = await h.request("GET", listed, { headers: root(), query: { state: "active" } });
      expect((active.json as Json[]).every((tk) => tk["active"] === true)).toBe(true);
      const inactive = await h.request("GET", listed, { headers: root(), query: { state: "inactive" } });
      expect((inactive.json as Json[]).map((tk) => tk["id"])).toEqual([made.token.id]);
      const paged = await h.request("GET", listed, { headers: root(), query: { per_page: "1", page: "2" } });
      expect((paged.json as Json[]).length).toBe(1);
      expect(paged.headers["x-page"]).toBe("2");
      expect(paged.headers["x-prev-page"]).toBe("1");
      const bad = await h.request("GET", listed, { headers: root(), query: { state: "nope" } });
      expect(bad.json).toEqual({ error: "state does not have a valid value" });
    });
    it("GET /:id shows one token; personal tokens and other users' tokens → 404 Impersonation Token Not Found", async () => {
      const own = await t.createToken(t.users.bob.id, { kind: "impersonation", name: "shown" });
      const r = await h.request("GET", `${base}/${own.token.id}`, { headers: root() });
      expect(r.json).toMatchObject({ id: own.token.id, name: "shown", impersonation: true, active: true });
      expect(r.json).not.toHaveProperty("token");
      const aliceToken = await t.createToken(t.users.alice.id, { kind: "impersonation" });
      const personal = await t.store.accessTokens.list({ userId: t.users.bob.id, kind: "personal" });
      for (const id of [aliceToken.token.id, personal[0]?.id ?? 0, 9999]) {
        const miss = await h.request("GET", `${base}/${id}`, { headers: root() });
        expect(miss.status).toBe(404);
        expect(miss.json).toEqual({ message: "404 Impersonation Token Not Found" });
      }
    });
    it("DELETE revokes: 204 without a body, the token stops working", async () => {
      const made = await t.createToken(t.users.bob.id, { kind: "impersonation", name: "gone" });
      const r = await h.request("DELETE", `${base}/${made.token.id}`, { headers: root() });
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect(r.headers["content-type"]).toBeUndefined();
      const shown = await h.request("GET", `${base}/${made.token.id}`, { headers: root() });
      expect(shown.json).toMatchObject({ revoked: true, active: false });
      const use = await h.request("GET", "/api/v4/user", { headers: { "private-token": made.plaintext } });
      expect(use.status).toBe(401);
      expect((use.json as Json)["error"]).toBe("invalid_token");
    });
  });
};
