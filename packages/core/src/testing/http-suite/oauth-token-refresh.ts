/**
 * `POST /oauth/token` with the refresh and password grants over HTTP (spec; checklist D1–D5, E1,
 * B5, B6): rotation, reuse as theft, client binding, scope narrowing, the password grant behind a
 * per-application switch, and throttling with an integer `Retry-After`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { clientFields, expectNoSecretsLogged, obtainHttpTokens, oauthWorld, TEST_VERIFIER, type OAuthWorld, type RegisteredApp } from "./oauth-fixture.js";
import { expectTokenHeaders } from "./oauth-token-code.js";

type Json = Record<string, unknown>;

/**
 * HTTP suite: the token endpoint's refresh-token grant (rotation, reuse revoking the family, narrower
 * scopes) and the password grant.
 */
export const oauthTokenRefreshSuite: HttpSuite = (h) => {
  describe("OAuth: POST /oauth/token (refresh_token, password)", () => {
    let w: OAuthWorld;
    let ropc: RegisteredApp;
    let other: RegisteredApp;
    const refresh = (app: RegisteredApp, token: unknown, extra: Record<string, string> = {}) =>
      w.post("/oauth/token", { grant_type: "refresh_token", refresh_token: String(token), ...clientFields(app), ...extra });
    const active = async (token: unknown) => (await w.call("GET", "/oauth/token/info", { headers: { authorization: `Bearer ${String(token)}` } })).status === 200;
    const password = (form: Record<string, string>, headers: Record<string, string> = {}) => w.post("/oauth/token", { grant_type: "password", ...form }, headers);

    beforeAll(async () => {
      w = await oauthWorld(h, { oauth: { rateLimit: { maxFailures: 3, windowSeconds: 60 } } });
      ropc = await w.register({ name: "First party", ropcEnabled: true, scopes: ["api", "read_user"] });
      other = await w.register({ name: "Other" });
    });

    it("D1: a refresh returns a new pair with the same scope; the old access and refresh tokens stop at once", async () => {
      const first = await obtainHttpTokens(w, w.web, { scope: "api read_user" });
      w.t.clock.advance(60_000);
      const r = await refresh(w.web, first["refresh_token"]);
      expect(r.status).toBe(200);
      expectTokenHeaders(r);
      const next = r.json as Json;
      expect(next).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "api read_user", created_at: Math.floor(w.t.clock.now().getTime() / 1000) });
      expect(next["refresh_token"]).not.toBe(first["refresh_token"]);
      expect(await active(first["access_token"])).toBe(false);
      expect(await active(next["access_token"])).toBe(true);
    });

    it("client-compatibility 8: redirect_uri and code_verifier may be sent and are ignored; refresh works after the access token expired", async () => {
      const first = await obtainHttpTokens(w, w.web);
      w.t.clock.advance(7300_000);
      const r = await refresh(w.web, first["refresh_token"], { redirect_uri: w.web.redirectUri, code_verifier: TEST_VERIFIER });
      expect(r.status).toBe(200);
    });

    it("public clients refresh with their client_id (PKCE style)", async () => {
      const first = await obtainHttpTokens(w, w.spa);
      const r = await refresh(w.spa, first["refresh_token"], { code_verifier: TEST_VERIFIER });
      expect(r.status).toBe(200);
    });

    it("D2: presenting a rotated-out refresh token is invalid_grant and revokes the whole family", async () => {
      const first = await obtainHttpTokens(w, w.web);
      const second = (await refresh(w.web, first["refresh_token"])).json as Json;
      const reuse = await refresh(w.web, first["refresh_token"]);
      expect(reuse.status).toBe(400);
      expect((reuse.json as Json)["error"]).toBe("invalid_grant");
      expect(await active(second["access_token"])).toBe(false);
      expect((await refresh(w.web, second["refresh_token"])).status).toBe(400);
      expect(w.logs.some((l) => l.event === "oauth.refresh_reuse_detected" && l.level === "warn")).toBe(true);
    });

    it("D4: another client's refresh token is invalid_grant; a confidential client must authenticate", async () => {
      const first = await obtainHttpTokens(w, w.web);
      expect(((await refresh(other, first["refresh_token"])).json as Json)["error"]).toBe("invalid_grant");
      const noSecret = await w.post("/oauth/token", { grant_type: "refresh_token", refresh_token: String(first["refresh_token"]), client_id: w.web.app.uid });
      expect(noSecret.status).toBe(401);
      const none = await w.post("/oauth/token", { grant_type: "refresh_token", refresh_token: String(first["refresh_token"]) });
      expect((none.json as Json)["error"]).toBe("invalid_grant");
      expect((await refresh(w.web, first["refresh_token"])).status).toBe(200);
    });

    it("D5: a narrower scope is granted, a wider one is invalid_scope", async () => {
      const first = await obtainHttpTokens(w, w.web, { scope: "api read_user" });
      expect(((await refresh(w.web, first["refresh_token"], { scope: "api sudo" })).json as Json)["error"]).toBe("invalid_scope");
      const narrowed = (await refresh(w.web, first["refresh_token"], { scope: "read_user" })).json as Json;
      expect(narrowed["scope"]).toBe("read_user");
    });

    it("an unknown refresh token is invalid_grant; a missing one is invalid_request", async () => {
      expect(((await refresh(w.web, "fkor_unknown")).json as Json)["error"]).toBe("invalid_grant");
      const missing = await w.post("/oauth/token", { grant_type: "refresh_token", ...clientFields(w.web) });
      expect(missing.json).toEqual({ error: "invalid_request", error_description: "Missing required parameter: refresh_token." });
    });

    it("password grant: access_token, token_type and expires_in only; default scope api", async () => {
      const r = await password({ username: "alice", password: "alice-password" }, { authorization: `Basic ${Buffer.from(`${ropc.app.uid}:${ropc.secret}`).toString("base64")}` });
      expect(r.status).toBe(200);
      expectTokenHeaders(r);
      expect(Object.keys(r.json as Json).sort()).toEqual(["access_token", "expires_in", "token_type"]);
      const info = await w.call("GET", "/oauth/token/info", { headers: { authorization: `Bearer ${String((r.json as Json)["access_token"])}` } });
      expect((info.json as Json)["scope"]).toEqual(["api"]);
    });

    it("password grant: without a client it works (spec); an application with the switch off is unauthorized_client", async () => {
      // Without a client only the default scope is issued (issue 8: no sudo, no admin_mode; see oauth-throttle.ts).
      expect((await password({ username: "bob", password: "bob-password", scope: "api" })).status).toBe(200);
      const off = await password({ username: "bob", password: "bob-password", ...clientFields(w.web) });
      expect(off.status).toBe(400);
      expect((off.json as Json)["error"]).toBe("unauthorized_client");
    });

    it("B6, E1: an unknown user, a wrong password and a two-factor user get the same invalid_grant body", async () => {
      await w.t.createUser({ username: "tfa", password: "tfa-password", twoFactorEnabled: true });
      w.secrets.add("tfa-password");
      const bodies = [];
      for (const form of [{ username: "nobody", password: "whatever1" }, { username: "root", password: "wrong-password" }, { username: "tfa", password: "tfa-password" }]) {
        const r = await password(form);
        expect(r.status).toBe(400);
        bodies.push(r.json);
      }
      expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
      expect((bodies[0] as Json)["error"]).toBe("invalid_grant");
    });

    it("B5: repeated password failures are throttled per username and address (429, integer Retry-After) until the window ends", async () => {
      for (let i = 0; i < 3; i++) expect((await password({ username: "bob", password: `bad-${i}` })).status).toBe(400);
      const blocked = await password({ username: "bob", password: "bob-password" });
      expect(blocked.status).toBe(429);
      expect(blocked.headers["retry-after"]).toMatch(/^\d+$/);
      expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
      w.t.clock.advance(61_000);
      expect((await password({ username: "bob", password: "bob-password" })).status).toBe(200);
    });

    it("B5: repeated client authentication failures are throttled per client — but never the client that presents its secret", async () => {
      const wrong = { grant_type: "refresh_token", refresh_token: "fkor_x", client_id: other.app.uid, client_secret: "fkos_wrong" };
      for (let i = 0; i < 3; i++) expect((await w.post("/oauth/token", wrong)).status).toBe(401);
      const blocked = await w.post("/oauth/token", wrong);
      expect(blocked.status).toBe(429);
      expect(blocked.headers["retry-after"]).toMatch(/^\d+$/);
      // Strangers' wrong secrets do not lock the real client out (issue 8): it passes client authentication.
      expect((await w.post("/oauth/token", { ...wrong, client_secret: other.secret })).status).toBe(400);
      w.t.clock.advance(61_000);
      expect((await w.post("/oauth/token", wrong)).status).toBe(401);
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
