/**
 * `POST /oauth/revoke` (RFC 7009; checklist F1–F4) and `GET /oauth/token/info` (spec "Token info";
 * F5) over HTTP.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { clientFields, expectNoSecretsLogged, obtainHttpTokens, oauthWorld, type OAuthWorld, type RegisteredApp } from "./oauth-fixture.js";
import { expectTokenHeaders } from "./oauth-token-code.js";

type Json = Record<string, unknown>;
const INVALID_TOKEN = { error: "invalid_token", error_description: "The access token is invalid", state: "unauthorized" };

/** HTTP suite: token revocation (`/oauth/revoke`). */
export const oauthRevokeSuite: HttpSuite = (h) => {
  describe("OAuth: POST /oauth/revoke", () => {
    let w: OAuthWorld;
    let other: RegisteredApp;
    const revoke = (app: RegisteredApp | null, token: unknown, extra: Record<string, string> = {}) =>
      w.post("/oauth/revoke", { token: String(token), ...(app === null ? {} : clientFields(app)), ...extra });
    const active = async (token: unknown) => (await w.call("GET", "/oauth/token/info", { query: { access_token: String(token) } })).status === 200;

    beforeAll(async () => {
      w = await oauthWorld(h);
      other = await w.register({ name: "Other" });
    });

    it("revoking the access token: 200 {} and both halves of the pair stop working (F4)", async () => {
      const tokens = await obtainHttpTokens(w, w.web);
      const r = await revoke(w.web, tokens["access_token"]);
      expect(r.status).toBe(200);
      expectTokenHeaders(r);
      expect(r.json).toEqual({});
      expect(await active(tokens["access_token"])).toBe(false);
      const refresh = await w.post("/oauth/token", { grant_type: "refresh_token", refresh_token: String(tokens["refresh_token"]), ...clientFields(w.web) });
      expect(refresh.status).toBe(400);
    });

    it("revoking the refresh token kills its access token (F4); token_type_hint is only a hint (F1)", async () => {
      const tokens = await obtainHttpTokens(w, w.web);
      const r = await revoke(w.web, tokens["refresh_token"], { token_type_hint: "access_token" });
      expect(r.json).toEqual({});
      expect(await active(tokens["access_token"])).toBe(false);
    });

    it("F2: an unknown or already revoked token is 200 {}", async () => {
      expect((await revoke(w.web, "fkoa_unknown")).json).toEqual({});
      const tokens = await obtainHttpTokens(w, w.web);
      await revoke(w.web, tokens["access_token"]);
      const again = await revoke(w.web, tokens["access_token"]);
      expect(again.status).toBe(200);
      expect(again.json).toEqual({});
    });

    it("F3: another client's token is refused with 403 and stays valid", async () => {
      const tokens = await obtainHttpTokens(w, w.web);
      const r = await revoke(other, tokens["access_token"]);
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ error: "unauthorized_client", error_description: "You are not authorized to revoke this token" });
      expect(await active(tokens["access_token"])).toBe(true);
    });

    it("a public client revokes by client_id; a confidential client with a wrong secret gets 401", async () => {
      const tokens = await obtainHttpTokens(w, w.spa);
      expect((await revoke(w.spa, tokens["refresh_token"])).json).toEqual({});
      expect(await active(tokens["access_token"])).toBe(false);
      const wrong = await revoke(null, "fkoa_x", { client_id: w.web.app.uid, client_secret: "fkos_wrong" });
      expect(wrong.status).toBe(401);
      expect((wrong.json as Json)["error"]).toBe("invalid_client");
    });

    it("a missing token is invalid_request; GET is 405", async () => {
      const r = await w.post("/oauth/revoke", { ...clientFields(w.web) });
      expect(r.json).toEqual({ error: "invalid_request", error_description: "Missing required parameter: token." });
      expect((await w.call("GET", "/oauth/revoke")).status).toBe(405);
    });

    it("logs: no issued code, token, secret or password appears", async () => {
      // A flow of the test's own: a code, a token pair and the client's secret go through the log, then both revocations.
      const tokens = await obtainHttpTokens(w, w.web);
      expect((await revoke(w.web, tokens["refresh_token"])).status).toBe(200);
      expect((await revoke(w.web, tokens["access_token"])).status).toBe(200);
      expectNoSecretsLogged(w);
    });
  });
};

/** HTTP suite: token introspection (`/oauth/token/info`). */
export const oauthTokenInfoSuite: HttpSuite = (h) => {
  describe("OAuth: GET /oauth/token/info", () => {
    let w: OAuthWorld;

    beforeAll(async () => {
      w = await oauthWorld(h);
    });

    it("the spec's token info, from the access_token query parameter or a Bearer header", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api read_user" });
      const issuedAt = Math.floor(w.t.clock.now().getTime() / 1000);
      w.t.clock.advance(100_000);
      for (const options of [{ query: { access_token: String(tokens["access_token"]) } }, { headers: { authorization: `Bearer ${String(tokens["access_token"])}` } }]) {
        const r = await w.call("GET", "/oauth/token/info", options);
        expect(r.status).toBe(200);
        expectTokenHeaders(r);
        expect(r.json).toEqual({
          resource_owner_id: w.t.users.alice.id,
          scope: ["api", "read_user"],
          expires_in: 7100,
          application: { uid: w.web.app.uid },
          created_at: issuedAt,
          scopes: ["api", "read_user"],
          expires_in_seconds: 7100,
        });
      }
    });

    it("F5: missing, unknown, revoked and expired tokens are 401 invalid_token with no-store", async () => {
      const revoked = await obtainHttpTokens(w, w.web);
      await w.post("/oauth/revoke", { token: String(revoked["access_token"]), ...clientFields(w.web) });
      const expired = await obtainHttpTokens(w, w.web);
      const attempts = [{}, { query: { access_token: "fkoa_unknown" } }, { query: { access_token: String(revoked["access_token"]) } }];
      for (const options of attempts) {
        const r = await w.call("GET", "/oauth/token/info", options);
        expect(r.status).toBe(401);
        expectTokenHeaders(r);
        expect(r.json).toEqual(INVALID_TOKEN);
        expect(r.headers["www-authenticate"]).toMatch(/^Bearer .*error="invalid_token"/);
      }
      w.t.clock.advance(7201_000);
      expect((await w.call("GET", "/oauth/token/info", { query: { access_token: String(expired["access_token"]) } })).status).toBe(401);
    });

    it("a blocked or deactivated user's token is 401 invalid_token, as the REST API refuses it", async () => {
      const tokens = await obtainHttpTokens(w, w.web, {}, "bob");
      const info = () => w.call("GET", "/oauth/token/info", { query: { access_token: String(tokens["access_token"]) } });
      expect((await info()).status).toBe(200);
      for (const state of ["blocked", "deactivated"] as const) {
        await w.t.store.users.update(w.t.users.bob.id, { state });
        const r = await info();
        expect(r.status).toBe(401);
        expectTokenHeaders(r);
        expect(r.json).toEqual(INVALID_TOKEN);
        const api = await w.call("GET", "/api/v4/user", { headers: { authorization: `Bearer ${String(tokens["access_token"])}` } });
        expect(api.status).toBe(403);
      }
      await w.t.store.users.update(w.t.users.bob.id, { state: "active" });
      expect((await info()).status).toBe(200);
    });

    it("the password grant's token (no client) has application uid null", async () => {
      const r = await w.post("/oauth/token", { grant_type: "password", username: "bob", password: "bob-password" });
      const info = await w.call("GET", "/oauth/token/info", { query: { access_token: String((r.json as Json)["access_token"]) } });
      expect((info.json as Json)["application"]).toEqual({ uid: null });
    });

    it("logs: the token in the query is redacted; no issued secret appears", async () => {
      // The test's own token, sent in the query.
      const tokens = await obtainHttpTokens(w, w.web);
      const from = w.logs.length;
      expect((await w.call("GET", "/oauth/token/info", { query: { access_token: String(tokens["access_token"]) } })).status).toBe(200);
      const logged = w.logs.slice(from).filter((l) => l.event === "oauth.request" && l.fields?.["path"] === "/oauth/token/info");
      expect(logged.some((l) => l.fields?.["query"] === "access_token=[REDACTED]")).toBe(true);
      expectNoSecretsLogged(w);
    });
  });
};
