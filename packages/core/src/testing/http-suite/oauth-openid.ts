/**
 * OpenID Connect over HTTP: `/oauth/userinfo` (GET and POST; checklist G1), the id_token in the
 * token response, discovery and the JWKS it points to (client-compatibility 10; checklist H7).
 */
import { createPublicKey, verify, type JsonWebKey } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import type { HttpSuite } from "../http-harness.js";
import { expectNoSecretsLogged, obtainHttpTokens, oauthWorld, type OAuthWorld } from "./oauth-fixture.js";

type Json = Record<string, unknown>;

const decode = (part: string): Json => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Json;

/** HTTP suite: OpenID Connect — discovery, id tokens, userinfo and the JWKS. */
export const oauthOpenIdSuite: HttpSuite = (h) => {
  describe("OAuth: OpenID Connect (userinfo, id_token, discovery, JWKS)", () => {
    let w: OAuthWorld;
    const userinfo = (token: unknown, method = "GET") => w.call(method, "/oauth/userinfo", { headers: { authorization: `Bearer ${String(token)}` } });

    beforeAll(async () => {
      w = await oauthWorld(h);
      // alice owns grp (and so its subgroup) and secret; bob is a Developer of grp/sub.
      await w.t.addMember({ group: w.t.groups.secret }, w.t.users.bob, AccessLevel.Reporter);
    });

    it("discovery names this issuer and its endpoints, S256 only", async () => {
      const r = await w.call("GET", "/.well-known/openid-configuration");
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/json");
      const doc = r.json as Json;
      expect(doc).toMatchObject({
        issuer: w.t.baseUrl,
        authorization_endpoint: `${w.t.baseUrl}/oauth/authorize`,
        token_endpoint: `${w.t.baseUrl}/oauth/token`,
        userinfo_endpoint: `${w.t.baseUrl}/oauth/userinfo`,
        jwks_uri: `${w.t.baseUrl}/oauth/discovery/keys`,
        code_challenge_methods_supported: ["S256"],
        id_token_signing_alg_values_supported: ["RS256"],
        response_types_supported: ["code"],
      });
      expect((await w.call("GET", "/.well-known/oauth-authorization-server")).json).toEqual(doc);
    });

    it("the id_token (openid) is RS256, signed by a JWKS key, with iss, aud, sub, exp, iat and nonce", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid", nonce: "n-0S6_WzA2Mj" });
      const [header, payload, signature] = String(tokens["id_token"]).split(".") as [string, string, string];
      expect(decode(header)).toMatchObject({ alg: "RS256", typ: "JWT" });
      const claims = decode(payload);
      const now = Math.floor(w.t.clock.now().getTime() / 1000);
      expect(claims).toEqual({ iss: w.t.baseUrl, aud: w.web.app.uid, sub: String(w.t.users.alice.id), iat: now, exp: now + 3600, nonce: "n-0S6_WzA2Mj" });
      const jwks = (await w.call("GET", "/oauth/discovery/keys")).json as { keys: (JsonWebKey & { kid: string })[] };
      const key = jwks.keys.find((k) => k.kid === decode(header)["kid"]);
      expect(key).toBeDefined();
      const ok = verify("sha256", Buffer.from(`${header}.${payload}`), createPublicKey({ key: key!, format: "jwk" }), Buffer.from(signature, "base64url"));
      expect(ok).toBe(true);
    });

    it("no openid scope, no id_token", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api" });
      expect(tokens["id_token"]).toBeUndefined();
    });

    it("userinfo (GET and POST): sub as a string, profile claims and group paths; no WWW-Authenticate on 200", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid" }, "bob");
      for (const method of ["GET", "POST"]) {
        const r = await userinfo(tokens["access_token"], method);
        expect(r.status).toBe(200);
        expect(r.headers["www-authenticate"]).toBeUndefined();
        expect(r.json).toEqual({
          sub: String(w.t.users.bob.id),
          name: "Bob Builder",
          nickname: "bob",
          preferred_username: "bob",
          profile: `${w.t.baseUrl}/bob`,
          groups: ["grp/sub", "secret"],
        });
      }
    });

    it("userinfo with the email scope discloses the primary email and whether it is verified", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid email" });
      const r = await userinfo(tokens["access_token"]);
      expect(r.json).toMatchObject({ sub: String(w.t.users.alice.id), email: "alice@example.com", email_verified: true });
    });

    it("userinfo on POST also takes the token from a form body", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const r = await w.post("/oauth/userinfo", { access_token: String(tokens["access_token"]) });
      expect(r.status).toBe(200);
      expect((r.json as Json)["sub"]).toBe(String(w.t.users.alice.id));
    });

    it("userinfo: no or a bad token → 401 invalid_token; without openid → 403 insufficient_scope; both with WWW-Authenticate", async () => {
      for (const r of [await w.call("GET", "/oauth/userinfo"), await userinfo("fkoa_nope")]) {
        expect(r.status).toBe(401);
        expect(r.headers["www-authenticate"]).toMatch(/^Bearer realm="forgekit", error="invalid_token"/);
      }
      const tokens = await obtainHttpTokens(w, w.web, { scope: "api" });
      const r = await userinfo(tokens["access_token"]);
      expect(r.status).toBe(403);
      expect(r.headers["www-authenticate"]).toContain('error="insufficient_scope"');
      expect((r.json as Json)["error"]).toBe("insufficient_scope");
    });

    it("G1: userinfo does not take the token from the query string", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid" });
      const r = await w.call("GET", "/oauth/userinfo", { query: { access_token: String(tokens["access_token"]) } });
      expect(r.status).toBe(401);
      expect((await userinfo(tokens["access_token"])).status).toBe(200);
    });

    it("userinfo for a blocked user is 401", async () => {
      const tokens = await obtainHttpTokens(w, w.web, { scope: "openid" }, "root");
      await w.t.store.users.update(w.t.users.root.id, { state: "blocked" });
      expect((await userinfo(tokens["access_token"])).status).toBe(401);
      await w.t.store.users.update(w.t.users.root.id, { state: "active" });
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
