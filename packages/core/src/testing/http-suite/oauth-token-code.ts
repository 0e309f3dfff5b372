/**
 * `POST /oauth/token` with `grant_type=authorization_code` over HTTP (spec token response;
 * checklist B1–B4, B6, C1–C7): the exact response, client authentication, PKCE, single use,
 * replay revocation, binding and expiry at the edges.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpResult, HttpSuite } from "../http-harness.js";
import {
  clientFields,
  expectNoSecretsLogged,
  obtainHttpCode,
  oauthWorld,
  TEST_VERIFIER,
  type OAuthWorld,
  type RegisteredApp,
} from "./oauth-fixture.js";

type Json = Record<string, unknown>;

/** RFC 6749 §5.1 / checklist B2 on every answer of the token endpoint. */
export function expectTokenHeaders(r: HttpResult): void {
  expect(r.headers["content-type"]).toBe("application/json");
  expect(r.headers["cache-control"]).toBe("no-store");
  expect(r.headers["pragma"]).toBe("no-cache");
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** HTTP suite: the token endpoint's authorization-code grant. */
export const oauthTokenCodeSuite: HttpSuite = (h) => {
  describe("OAuth: POST /oauth/token (authorization_code)", () => {
    let w: OAuthWorld;
    let other: RegisteredApp;
    const redeem = (app: RegisteredApp, code: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      w.post("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, ...clientFields(app), ...extra }, headers);
    const active = async (token: unknown) => (await w.call("GET", "/oauth/token/info", { headers: { authorization: `Bearer ${String(token)}` } })).status === 200;

    beforeAll(async () => {
      w = await oauthWorld(h);
      other = await w.register({ name: "Other" });
    });

    it("C7: with the client secret — 200, the spec's token response, no-store headers", async () => {
      const code = await obtainHttpCode(w, w.web, { scope: "api read_user" });
      const r = await redeem(w.web, code);
      expect(r.status).toBe(200);
      expectTokenHeaders(r);
      expect(r.json).toEqual({
        access_token: expect.stringMatching(/^fkoa_[\w-]{43}$/) as unknown,
        token_type: "bearer",
        expires_in: 7200,
        refresh_token: expect.stringMatching(/^fkor_[\w-]{43}$/) as unknown,
        scope: "api read_user",
        created_at: Math.floor(w.t.clock.now().getTime() / 1000),
      });
    });

    it("B4: HTTP Basic with form-url-encoded id and secret authenticates the client", async () => {
      const code = await obtainHttpCode(w, w.web);
      const r = await w.post("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: w.web.redirectUri }, { authorization: basic(w.web.app.uid, w.web.secret) });
      expect(r.status).toBe(200);
    });

    it("B4: Basic and a body secret together are invalid_request", async () => {
      const code = await obtainHttpCode(w, w.web);
      const r = await redeem(w.web, code, {}, { authorization: basic(w.web.app.uid, w.web.secret) });
      expect(r.status).toBe(400);
      expect((r.json as Json)["error"]).toBe("invalid_request");
    });

    it("B3, B4: a wrong secret is 401 invalid_client with a Basic challenge; a confidential client with only a verifier too", async () => {
      const code = await obtainHttpCode(w, w.web, {}, "alice");
      const wrong = await redeem(w.web, code, { client_secret: "fkos_wrong" });
      expect(wrong.status).toBe(401);
      expectTokenHeaders(wrong);
      expect(wrong.headers["www-authenticate"]).toMatch(/^Basic /);
      expect(wrong.json).toEqual({ error: "invalid_client", error_description: expect.stringContaining("failed due to unknown client") as unknown });
      const pkceCode = await obtainHttpCode(w, w.web, { code_challenge: "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U", code_challenge_method: "S256" });
      const noSecret = await w.post("/oauth/token", { grant_type: "authorization_code", code: pkceCode, redirect_uri: w.web.redirectUri, client_id: w.web.app.uid, code_verifier: TEST_VERIFIER });
      expect(noSecret.status).toBe(401);
      expect((noSecret.json as Json)["error"]).toBe("invalid_client");
    });

    it("PKCE: a public client redeems with its verifier and no secret", async () => {
      const code = await obtainHttpCode(w, w.spa);
      const r = await redeem(w.spa, code, { code_verifier: TEST_VERIFIER });
      expect(r.status).toBe(200);
      expect((r.json as Json)["refresh_token"]).toBeDefined();
    });

    it("C5: a wrong verifier is invalid_grant and burns the code", async () => {
      const code = await obtainHttpCode(w, w.spa);
      const wrong = await redeem(w.spa, code, { code_verifier: "x".repeat(43) });
      expect(wrong.status).toBe(400);
      expect((wrong.json as Json)["error"]).toBe("invalid_grant");
      expect((await redeem(w.spa, code, { code_verifier: TEST_VERIFIER })).status).toBe(400);
    });

    it("C5: a challenge without a verifier, and a verifier of the wrong length, are invalid_grant", async () => {
      expect(((await redeem(w.spa, await obtainHttpCode(w, w.spa))).json as Json)["error"]).toBe("invalid_grant");
      expect(((await redeem(w.spa, await obtainHttpCode(w, w.spa), { code_verifier: "short" })).json as Json)["error"]).toBe("invalid_grant");
    });

    it("C6: a verifier sent for a code issued without a challenge (downgrade) is invalid_grant", async () => {
      const code = await obtainHttpCode(w, w.web);
      const r = await redeem(w.web, code, { code_verifier: TEST_VERIFIER });
      expect((r.json as Json)["error"]).toBe("invalid_grant");
    });

    it("C1, C2: a replayed code is invalid_grant and the tokens issued from it stop working", async () => {
      const code = await obtainHttpCode(w, w.web);
      const first = (await redeem(w.web, code)).json as Json;
      expect(await active(first["access_token"])).toBe(true);
      const replay = await redeem(w.web, code);
      expect(replay.status).toBe(400);
      expect(replay.json).toEqual({ error: "invalid_grant", error_description: expect.any(String) as unknown });
      expect(await active(first["access_token"])).toBe(false);
      const refresh = await w.post("/oauth/token", { grant_type: "refresh_token", refresh_token: String(first["refresh_token"]), ...clientFields(w.web) });
      expect(refresh.status).toBe(400);
    });

    it("C3: another client's code, or another redirect URI, is invalid_grant", async () => {
      const code = await obtainHttpCode(w, w.web);
      expect(((await redeem(other, code)).json as Json)["error"]).toBe("invalid_grant");
      const code2 = await obtainHttpCode(w, w.web);
      expect(((await redeem(w.web, code2, { redirect_uri: "https://app.example/other" })).json as Json)["error"]).toBe("invalid_grant");
    });

    it("C4: a code works 599 s after it was issued and not 601 s after", async () => {
      const early = await obtainHttpCode(w, w.web);
      const late = await obtainHttpCode(w, w.web);
      w.t.clock.advance(599_000);
      expect((await redeem(w.web, early)).status).toBe(200);
      w.t.clock.advance(2_000);
      const r = await redeem(w.web, late);
      expect(r.status).toBe(400);
      expect((r.json as Json)["error"]).toBe("invalid_grant");
    });

    it("an unknown code is invalid_grant; a missing code or redirect_uri is invalid_request", async () => {
      expect(((await redeem(w.web, "fkoc_unknown")).json as Json)["error"]).toBe("invalid_grant");
      const noCode = await w.post("/oauth/token", { grant_type: "authorization_code", redirect_uri: w.web.redirectUri, ...clientFields(w.web) });
      expect(noCode.json).toEqual({ error: "invalid_request", error_description: "Missing required parameter: code." });
    });

    it("B1: GET is 405, a JSON body is invalid_request, never tokens", async () => {
      const get = await w.call("GET", "/oauth/token", { query: { grant_type: "authorization_code" } });
      expect(get.status).toBe(405);
      expect(get.headers["allow"]).toBe("POST, OPTIONS");
      const json = await w.call("POST", "/oauth/token", { json: { grant_type: "authorization_code", code: "x" } });
      expect(json.status).toBe(400);
      expectTokenHeaders(json);
      expect((json.json as Json)["error"]).toBe("invalid_request");
    });

    it("grant_type: missing → invalid_request; implicit, client credentials and device → unsupported_grant_type", async () => {
      const missing = await w.post("/oauth/token", { ...clientFields(w.web) });
      expect(missing.json).toEqual({ error: "invalid_request", error_description: "Missing required parameter: grant_type." });
      for (const grant of ["implicit", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"]) {
        const r = await w.post("/oauth/token", { grant_type: grant, ...clientFields(w.web) });
        expect(r.status).toBe(400);
        expectTokenHeaders(r);
        expect((r.json as Json)["error"]).toBe("unsupported_grant_type");
      }
      const device = await w.post("/oauth/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code" });
      expect((device.json as Json)["error_description"]).toBe("The device authorization grant is not supported.");
    });

    it("A6: a parameter sent twice at the token endpoint is invalid_request", async () => {
      const body = `grant_type=authorization_code&code=a&code=b&redirect_uri=${encodeURIComponent(w.web.redirectUri)}`;
      const r = await w.call("POST", "/oauth/token", { headers: { "content-type": "application/x-www-form-urlencoded" }, body });
      expect((r.json as Json)["error"]).toBe("invalid_request");
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
