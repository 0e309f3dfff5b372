/**
 * Around the OAuth endpoints, over HTTP: CORS (spec "Cross-origin"; checklist G2;
 * client-compatibility 24), OAuth access tokens on `/api/v4` with their scopes and the access
 * token's lifetime at its edges (7199 s / 7201 s).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { clientFields, expectNoSecretsLogged, obtainHttpTokens, oauthWorld, type OAuthWorld } from "./oauth-fixture.js";

type Json = Record<string, unknown>;
const ORIGIN = "https://spa.example";

/** HTTP suite: CORS of the OAuth endpoints. */
export const oauthCorsSuite: HttpSuite = (h) => {
  describe("OAuth: CORS on /oauth", () => {
    let w: OAuthWorld;
    const preflight = (path: string, method: string, headers?: string) =>
      w.call("OPTIONS", path, {
        headers: { origin: ORIGIN, "access-control-request-method": method, ...(headers === undefined ? {} : { "access-control-request-headers": headers }) },
      });

    beforeAll(async () => {
      w = await oauthWorld(h);
    });

    it("preflight on token, revoke and userinfo allows the method and Authorization, without credentials", async () => {
      for (const [path, method] of [["/oauth/token", "POST"], ["/oauth/revoke", "POST"], ["/oauth/userinfo", "GET"], ["/oauth/userinfo", "POST"]] as const) {
        const r = await preflight(path, method, "Authorization, Content-Type");
        expect(r.status, path).toBeLessThan(300);
        expect(r.headers["access-control-allow-origin"]).toBe("*");
        expect(r.headers["access-control-allow-methods"]).toContain(method);
        expect(r.headers["access-control-allow-headers"]!.toLowerCase()).toContain("authorization");
        expect(r.headers["access-control-allow-credentials"]).toBeUndefined();
      }
    });

    it("a preflight asking for X-Requested-With gets no allow headers", async () => {
      const r = await preflight("/oauth/token", "POST", "Authorization, X-CSRF-Token, X-Requested-With");
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      expect(r.headers["access-control-allow-headers"]).toBeUndefined();
      expect(r.headers["access-control-allow-methods"]).toBeUndefined();
    });

    it("no preflight for the authorization page or token info", async () => {
      for (const path of ["/oauth/authorize", "/oauth/token/info"]) {
        const r = await preflight(path, "GET", "Authorization");
        expect(r.headers["access-control-allow-origin"], path).toBeUndefined();
      }
    });

    it("a preflight for a method the endpoint does not take gets no allow headers", async () => {
      const r = await preflight("/oauth/token", "DELETE");
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    });

    it("actual cross-origin responses carry Access-Control-Allow-Origin: * and never Allow-Credentials", async () => {
      const tokens = await obtainHttpTokens(w, w.spa);
      const token = await w.call("POST", "/oauth/revoke", {
        headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: String(tokens["access_token"]), ...clientFields(w.spa) }).toString(),
      });
      expect(token.status).toBe(200);
      expect(token.headers["access-control-allow-origin"]).toBe("*");
      expect(token.headers["access-control-allow-credentials"]).toBeUndefined();
      const discovery = await w.call("GET", "/.well-known/openid-configuration", { headers: { origin: ORIGIN } });
      expect(discovery.headers["access-control-allow-origin"]).toBe("*");
      const page = await w.call("GET", "/oauth/authorize", { headers: { origin: ORIGIN } });
      expect(page.headers["access-control-allow-origin"]).toBeUndefined();
    });

    it("a plain OPTIONS (no preflight) lists the methods", async () => {
      const r = await w.call("OPTIONS", "/oauth/userinfo");
      expect(r.status).toBe(204);
      expect(r.headers["allow"]).toBe("GET, POST, HEAD, OPTIONS");
    });

    it("unknown /oauth paths are the API's 404", async () => {
      const r = await w.call("GET", "/oauth/applications");
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "404 Not Found" });
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};

/**
 * HTTP suite: OAuth access tokens on /api/v4 — as Bearer header or parameter, their scopes, expiry and
 * revocation.
 */
export const oauthApiAccessSuite: HttpSuite = (h) => {
  describe("OAuth: access tokens on /api/v4", () => {
    let w: OAuthWorld;
    const me = (token: unknown) => w.call("GET", "/api/v4/user", { headers: { authorization: `Bearer ${String(token)}` } });

    beforeAll(async () => {
      w = await oauthWorld(h);
    });

    it("an OAuth token authenticates /api/v4 as its user (Bearer header and access_token parameter)", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api" });
      const r = await me(tokens["access_token"]);
      expect(r.status).toBe(200);
      expect((r.json as Json)["username"]).toBe("alice");
      const q = await w.call("GET", "/api/v4/user", { query: { access_token: String(tokens["access_token"]) } });
      expect((q.json as Json)["username"]).toBe("alice");
    });

    it("its scopes apply: read_user reads /user but not /projects", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "read_user" });
      expect((await me(tokens["access_token"])).status).toBe(200);
      const projects = await w.call("GET", "/api/v4/projects", { headers: { authorization: `Bearer ${String(tokens["access_token"])}` } });
      expect(projects.status).toBe(403);
      expect((projects.json as Json)["error"]).toBe("insufficient_scope");
    });

    it("the access token works 7199 s after issue and is expired at 7201 s", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api" });
      w.t.clock.advance(7199_000);
      expect((await me(tokens["access_token"])).status).toBe(200);
      expect((await w.call("GET", "/oauth/token/info", { query: { access_token: String(tokens["access_token"]) } })).status).toBe(200);
      w.t.clock.advance(2_000);
      const r = await me(tokens["access_token"]);
      expect(r.status).toBe(401);
      expect((r.json as Json)["error"]).toBe("invalid_token");
      expect((await w.call("GET", "/oauth/token/info", { query: { access_token: String(tokens["access_token"]) } })).status).toBe(401);
    });

    it("a revoked OAuth token is refused by /api/v4", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api" });
      await w.post("/oauth/revoke", { token: String(tokens["access_token"]), ...clientFields(w.web) });
      expect((await me(tokens["access_token"])).status).toBe(401);
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
