/**
 * Authentication over HTTP (spec "Authentication"; auth-oauth-conventions §2.2–2.4): every
 * credential source, precedence, the exact 401/403 bodies, scopes and impersonation switching.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { OAuthAccessTokenRecord } from "../../auth/oauth-token-lookup.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";

const UNAUTHORIZED = { message: "401 Unauthorized" };
const EXPIRED = { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." };
const REVOKED = { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." };
const IMPERSONATION_OFF = { error: "invalid_token", error_description: "Token is an impersonation token but impersonation was disabled." };
const scopeError = (scope: string) => ({
  error: "insufficient_scope",
  error_description: "The request requires higher privileges than provided by the access token.",
  scope,
});

/** An instance with fake OAuth tokens and host sessions wired in. */
async function authWorld(h: HttpHarness) {
  const oauth = new Map<string, OAuthAccessTokenRecord>();
  const sessions = new Map<string, number>();
  const t = await createTestForgekit({
    oauthTokens: { find: (raw) => Promise.resolve(oauth.get(raw) ?? null) },
    session: {
      resolve: (cookie) => Promise.resolve(sessions.get(cookie) ?? null),
      verifyCsrfToken: (cookie, token) => Promise.resolve(token === `csrf-${cookie}`),
    },
  });
  const oauthToken = (raw: string, userId: number, extra: Partial<OAuthAccessTokenRecord> = {}) =>
    oauth.set(raw, { id: oauth.size + 1, userId, scopes: ["api"], expiresAt: null, revokedAt: null, applicationId: 1, ...extra });
  await h.serve(t.fk);
  return { t, oauthToken, sessions };
}

/** Authentication methods, precedence and failure bodies. */
export const authenticationSuite: HttpSuite = (h) => {
  describe("authentication", () => {
    let t: TestForgekit;
    let oauthToken: (raw: string, userId: number, extra?: Partial<OAuthAccessTokenRecord>) => void;
    let sessions: Map<string, number>;
    const me = async (options: Parameters<HttpHarness["request"]>[2] = {}) => h.request("GET", "/api/v4/user", options);

    beforeAll(async () => {
      ({ t, oauthToken, sessions } = await authWorld(h));
      oauthToken("oauth-bob", t.users.bob.id);
      oauthToken("oauth-expired", t.users.bob.id, { expiresAt: new Date("2024-05-01T11:00:00Z") });
      oauthToken("oauth-revoked", t.users.bob.id, { revokedAt: new Date("2024-05-01T11:00:00Z") });
      oauthToken("oauth-read-user", t.users.bob.id, { scopes: ["read_user"] });
      sessions.set("s-alice", t.users.alice.id);
      sessions.set("s-root", t.users.root.id);
    });

    it("PRIVATE-TOKEN header authenticates a personal token", async () => {
      const r = await me({ headers: { "private-token": t.tokens.alice } });
      expect(r.status).toBe(200);
      expect((r.json as { username: string }).username).toBe("alice");
    });
    it("private_token query parameter authenticates a personal token", async () => {
      const r = await me({ query: { private_token: t.tokens.alice } });
      expect((r.json as { username: string }).username).toBe("alice");
    });
    it("Authorization: Bearer accepts a personal token", async () => {
      const r = await me({ headers: { authorization: `Bearer ${t.tokens.bob}` } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("access_token parameter falls back to personal tokens", async () => {
      const r = await me({ query: { access_token: t.tokens.bob } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("precedence: private_token parameter beats the PRIVATE-TOKEN header", async () => {
      const r = await me({ query: { private_token: t.tokens.alice }, headers: { "private-token": t.tokens.bob } });
      expect((r.json as { username: string }).username).toBe("alice");
    });
    it("precedence: PRIVATE-TOKEN beats a Bearer value that is not an OAuth token", async () => {
      const r = await me({ headers: { "private-token": t.tokens.alice, authorization: `Bearer ${t.tokens.bob}` } });
      expect((r.json as { username: string }).username).toBe("alice");
    });
    it("OAuth access token in Authorization: Bearer authenticates", async () => {
      const r = await me({ headers: { authorization: "Bearer oauth-bob" } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("OAuth access token in the access_token parameter authenticates", async () => {
      const r = await me({ query: { access_token: "oauth-bob" } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("precedence: an OAuth Bearer token beats PRIVATE-TOKEN", async () => {
      const r = await me({ headers: { authorization: "Bearer oauth-bob", "private-token": t.tokens.alice } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("session cookie _service_session authenticates GET requests", async () => {
      const r = await me({ headers: { cookie: "other=1; _service_session=s-alice" } });
      expect((r.json as { username: string }).username).toBe("alice");
    });
    it("precedence: a token beats the session", async () => {
      const r = await me({ headers: { cookie: "_service_session=s-alice", "private-token": t.tokens.bob } });
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("an unknown session is anonymous: 401 on a required route", async () => {
      const r = await me({ headers: { cookie: "_service_session=nope" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    });
    it("a session authenticates a POST only with a valid X-CSRF-Token", async () => {
      const path = `/api/v4/users/${t.users.bob.id}/impersonation_tokens`;
      const json = { name: "via session", scopes: ["api"] };
      const without = await h.request("POST", path, { json, headers: { cookie: "_service_session=s-root" } });
      expect(without.status).toBe(401);
      const wrong = await h.request("POST", path, { json, headers: { cookie: "_service_session=s-root", "x-csrf-token": "bad" } });
      expect(wrong.status).toBe(401);
      const right = await h.request("POST", path, { json, headers: { cookie: "_service_session=s-root", "x-csrf-token": "csrf-s-root" } });
      expect(right.status).toBe(201);
    });
    it("rule 2: no credentials on a protected endpoint → 401 {message: 401 Unauthorized}", async () => {
      const r = await me();
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
      expect(r.headers["content-type"]).toBe("application/json");
    });
    it("no credentials on an optional endpoint → public data", async () => {
      const r = await h.request("GET", "/api/v4/projects");
      expect(r.status).toBe(200);
    });
    it("an unknown token → 401 even where anonymous access is allowed", async () => {
      for (const options of [{ query: { access_token: "123a" } }, { query: { private_token: "nope" } }, { headers: { "private-token": "nope" } }, { headers: { authorization: "Bearer nope" } }]) {
        const r = await h.request("GET", "/api/v4/projects", options);
        expect(r.status).toBe(401);
        expect(r.json).toEqual(UNAUTHORIZED);
      }
    });
    it("rule 1: a Deploy-Token header is never accepted", async () => {
      const r = await me({ headers: { "deploy-token": t.tokens.alice } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    });
    it("a job token is ignored on routes without job-token support", async () => {
      const r = await me({ headers: { "job-token": t.tokens.alice }, query: { job_token: t.tokens.alice } });
      expect(r.status).toBe(401);
    });
    it("an expired OAuth token → 401 invalid_token (expired)", async () => {
      const r = await me({ headers: { authorization: "Bearer oauth-expired" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(EXPIRED);
    });
    it("a revoked OAuth token → 401 invalid_token (revoked)", async () => {
      const r = await me({ headers: { authorization: "Bearer oauth-revoked" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(REVOKED);
    });
    it("scopes: a read_user OAuth token reads /user but not /projects", async () => {
      expect((await me({ headers: { authorization: "Bearer oauth-read-user" } })).status).toBe(200);
      const r = await h.request("GET", "/api/v4/projects", { headers: { authorization: "Bearer oauth-read-user" } });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(scopeError("api read_api"));
    });
    it("using a token touches its last_used_at", async () => {
      const { token, plaintext } = await t.createToken(t.users.alice.id, { name: "touch me" });
      expect(token.lastUsedAt).toBeNull();
      t.clock.set("2024-05-01T12:30:00.000Z");
      await me({ headers: { "private-token": plaintext } });
      const row = await t.store.accessTokens.findById(token.id);
      expect(row?.lastUsedAt?.toISOString()).toBe("2024-05-01T12:30:00.000Z");
      t.clock.set("2024-05-01T12:00:00.000Z");
    });
    it("last_used_at is refreshed at most every 10 minutes", async () => {
      const { token, plaintext } = await t.createToken(t.users.alice.id, { name: "touch me rarely" });
      const lastUsed = async () => (await t.store.accessTokens.findById(token.id))?.lastUsedAt?.toISOString();
      t.clock.set("2024-05-01T13:00:00.000Z");
      await me({ headers: { "private-token": plaintext } });
      t.clock.set("2024-05-01T13:09:59.999Z");
      await me({ headers: { "private-token": plaintext } });
      expect(await lastUsed()).toBe("2024-05-01T13:00:00.000Z");
      t.clock.set("2024-05-01T13:10:00.000Z");
      await me({ headers: { "private-token": plaintext } });
      expect(await lastUsed()).toBe("2024-05-01T13:10:00.000Z");
      t.clock.set("2024-05-01T12:00:00.000Z");
    });
  });

  describe("authentication - token validity, scopes, user state", () => {
    let t: TestForgekit;
    const me = (token: string) => h.request("GET", "/api/v4/user", { headers: { "private-token": token } });

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    it("an expired personal token → 401 invalid_token (expired)", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { expiresAt: "2024-05-02" });
      expect((await me(plaintext)).status).toBe(200);
      t.clock.set("2024-05-03T00:00:00.000Z");
      const r = await me(plaintext);
      t.clock.set("2024-05-01T12:00:00.000Z");
      expect(r.status).toBe(401);
      expect(r.json).toEqual(EXPIRED);
      expect(r.headers["www-authenticate"]).toContain('error="invalid_token"');
    });
    it("a revoked personal token → 401 invalid_token (revoked)", async () => {
      const { token, plaintext } = await t.createToken(t.users.bob.id);
      await must(t.fk.tokens.revoke(token.id));
      const r = await me(plaintext);
      expect(r.status).toBe(401);
      expect(r.json).toEqual(REVOKED);
    });
    it("order: expired is reported before revoked", async () => {
      const { token, plaintext } = await t.createToken(t.users.bob.id, { expiresAt: "2024-05-02" });
      await must(t.fk.tokens.revoke(token.id));
      t.clock.set("2024-05-05T00:00:00.000Z");
      const r = await me(plaintext);
      t.clock.set("2024-05-01T12:00:00.000Z");
      expect(r.json).toEqual(EXPIRED);
    });
    it("scopes: read_api allows GET everywhere and refuses POST", async () => {
      const { plaintext } = await t.createToken(t.users.root.id, { scopes: ["read_api"] });
      expect((await me(plaintext)).status).toBe(200);
      expect((await h.request("GET", "/api/v4/projects", { headers: { "private-token": plaintext } })).status).toBe(200);
      const r = await h.request("POST", `/api/v4/users/${t.users.bob.id}/impersonation_tokens`, {
        headers: { "private-token": plaintext },
        json: { name: "x", scopes: ["api"] },
      });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(scopeError("read_user api read_api"));
      expect(r.headers["www-authenticate"]).toBeUndefined();
    });
    it("scopes: a token without api/read_api/read_user is refused on /user with the route's scope list", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { scopes: ["read_repository"] });
      const r = await me(plaintext);
      expect(r.status).toBe(403);
      expect(r.json).toEqual(scopeError("read_user api read_api"));
    });
    it("scopes: read_user reads /users/:id too", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { scopes: ["read_user"] });
      const r = await h.request("GET", `/api/v4/users/${t.users.alice.id}`, { headers: { "private-token": plaintext } });
      expect(r.status).toBe(200);
    });
    it("a blocked user → 403 with the reference reason", async () => {
      const user = await t.createUser({ username: "blocked-user" });
      const { plaintext } = await t.createToken(user.id);
      await must(t.fk.users.block(user.id));
      const r = await me(plaintext);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    });
    it("a deactivated user → 403 with the reactivation hint", async () => {
      const user = await t.createUser({ username: "sleepy" });
      const { plaintext } = await t.createToken(user.id);
      await must(t.fk.users.deactivate(user.id));
      const r = await me(plaintext);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({
        message: `403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${t.baseUrl}`,
      });
    });
  });

  describe("authentication - impersonation tokens (rule 3)", () => {
    let t: TestForgekit;
    const me = (token: string) => h.request("GET", "/api/v4/user", { headers: { "private-token": token } });

    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    it("impersonation is enabled by default: the token acts as its user", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { kind: "impersonation" });
      const r = await me(plaintext);
      expect((r.json as { username: string }).username).toBe("bob");
    });
    it("impersonation_enabled=false disables impersonation tokens; removing the setting re-enables them", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { kind: "impersonation" });
      await must(t.fk.settings.setImpersonationEnabled(false));
      const off = await me(plaintext);
      expect(off.status).toBe(401);
      expect(off.json).toEqual(IMPERSONATION_OFF);
      const personal = await me(t.tokens.bob);
      expect(personal.status).toBe(200);
      await must(t.fk.settings.setImpersonationEnabled(null));
      expect((await me(plaintext)).status).toBe(200);
    });
    it("order: insufficient scope is reported before impersonation disabled", async () => {
      const { plaintext } = await t.createToken(t.users.bob.id, { kind: "impersonation", scopes: ["read_repository"] });
      await must(t.fk.settings.setImpersonationEnabled(false));
      const r = await me(plaintext);
      await must(t.fk.settings.setImpersonationEnabled(null));
      expect(r.status).toBe(403);
      expect(r.json).toEqual(scopeError("read_user api read_api"));
    });
  });
};
