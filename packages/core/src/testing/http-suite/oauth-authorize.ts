/**
 * `GET` and `POST /oauth/authorize` over HTTP (spec "OAuth 2.0 provider"; checklist A1–A9):
 * error pages that never redirect, errors redirected with `state`, the login redirect, the consent
 * page and its headers, approve, deny, and the CSRF token.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { authorizeQuery, consent, consentFields, expectNoSecretsLogged, oauthWorld, type OAuthWorld, type RegisteredApp } from "./oauth-fixture.js";

const params = (r: { headers: Record<string, string> }) => new URL(r.headers.location!).searchParams;

/** HTTP suite: the OAuth authorization endpoint (consent form, redirects, PKCE, errors). */
export const oauthAuthorizeSuite: HttpSuite = (h) => {
  describe("OAuth: /oauth/authorize", () => {
    let w: OAuthWorld;
    let twoUris: RegisteredApp;
    let trusted: RegisteredApp;
    const get = (query: Record<string, string> | string, user: string | null = "alice") =>
      w.call("GET", "/oauth/authorize", { query, headers: user === null ? {} : { cookie: w.cookie(user) } });

    beforeAll(async () => {
      w = await oauthWorld(h);
      twoUris = await w.register({ name: "Two URIs", redirectUris: ["https://two.example/a", "https://two.example/b"] });
      trusted = await w.register({ name: "Trusted", trusted: true, redirectUris: ["https://trusted.example/cb"] });
    });

    it("A2: an unknown or missing client_id renders a 400 page and never redirects", async () => {
      const queries: Record<string, string>[] = [{ ...authorizeQuery(w.web), client_id: "nope" }, { redirect_uri: w.web.redirectUri, response_type: "code" }];
      for (const query of queries) {
        const r = await get(query);
        expect(r.status).toBe(400);
        expect(r.headers.location).toBeUndefined();
        expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
        expect(r.text).toContain("An error has occurred");
      }
    });

    it("A1, A4: only the exact registered redirect URI is accepted — variants get a page, not a redirect", async () => {
      for (const uri of ["https://app.example/cb/", "https://app.example/cb?x=1", "https://app.example:8443/cb", "https://app.example@evil.example/cb", "https://app.example/cb#f", "https://evil.example/cb"]) {
        const r = await get(authorizeQuery(w.web, { redirect_uri: uri }));
        expect(r.status, uri).toBe(400);
        expect(r.headers.location).toBeUndefined();
        expect(r.text).toContain("The redirect URI included is not valid.");
      }
    });

    it("A1: a loopback redirect URI may use any port (RFC 8252 §7.3)", async () => {
      const r = await get(authorizeQuery(w.spa, { redirect_uri: "http://127.0.0.1:51234/callback" }));
      expect(r.status).toBe(200);
    });

    it("A3: with several registered URIs, leaving redirect_uri out is an error page", async () => {
      const { redirect_uri: _omitted, ...query } = authorizeQuery(twoUris);
      const r = await get(query);
      expect(r.status).toBe(400);
      expect(r.headers.location).toBeUndefined();
    });

    it("A5: later errors redirect with error, error_description and the state byte for byte", async () => {
      const state = "a b+c/d?e=f&g%h~é";
      const cases: [Record<string, string>, string][] = [
        [{ response_type: "token" }, "unsupported_response_type"],
        [{ scope: "api sudo" }, "invalid_scope"],
        [{ scope: "nonsense" }, "invalid_scope"],
      ];
      for (const [extra, error] of cases) {
        const r = await get(authorizeQuery(w.web, { ...extra, state }));
        expect(r.status).toBe(302);
        expect(r.headers.location!.startsWith("https://app.example/cb?")).toBe(true);
        expect(params(r).get("error")).toBe(error);
        expect(params(r).get("error_description")).toBeTruthy();
        expect(params(r).get("state")).toBe(state);
      }
    });

    it("A5: without state, the error redirect adds none", async () => {
      const { state: _none, ...query } = authorizeQuery(w.web, { response_type: "token" });
      const r = await get(query);
      expect(params(r).has("state")).toBe(false);
      expect(params(r).get("iss")).toBe(w.t.baseUrl);
    });

    it("A6: a parameter sent twice is invalid_request", async () => {
      const query = `${new URLSearchParams(authorizeQuery(w.web)).toString()}&scope=api&scope=read_user`;
      const r = await get(query);
      expect(r.status).toBe(302);
      expect(params(r).get("error")).toBe("invalid_request");
    });

    it("A7: a public client must send an S256 challenge; plain, a missing method and a malformed challenge are refused", async () => {
      const cases = [
        authorizeQuery(w.spa, {}, false),
        authorizeQuery(w.spa, { code_challenge_method: "plain" }),
        { ...authorizeQuery(w.spa, {}, false), code_challenge: "x".repeat(43) },
        authorizeQuery(w.spa, { code_challenge: "too-short" }),
      ];
      for (const query of cases) {
        const r = await get(query);
        expect(r.status).toBe(302);
        expect(params(r).get("error")).toBe("invalid_request");
        expect(params(r).get("state")).toBe("st-1");
      }
    });

    it("an unknown session counts as signed out", async () => {
      const r = await w.call("GET", "/oauth/authorize", { query: authorizeQuery(w.web), headers: { cookie: "_service_session=nobody-knows" } });
      expect(r.status).toBe(302);
      expect(r.headers.location!.startsWith("/users/sign_in?return_to=")).toBe(true);
    });

    it("signed out: 302 to the host's login page with the full authorization URL to return to", async () => {
      const query = authorizeQuery(w.web, { scope: "api openid" });
      const r = await get(query, null);
      expect(r.status).toBe(302);
      const location = new URL(r.headers.location!, "https://host.example");
      expect(location.pathname).toBe("/users/sign_in");
      const back = new URL(location.searchParams.get("return_to")!);
      expect(`${back.origin}${back.pathname}`).toBe(`${w.t.baseUrl}/oauth/authorize`);
      expect(Object.fromEntries(back.searchParams)).toEqual(query);
    });

    it("signed out with a bad client: the error page, never the login page", async () => {
      const r = await get({ ...authorizeQuery(w.web), client_id: "nope" }, null);
      expect(r.status).toBe(400);
    });

    it("A9: the consent page names the app and scopes, posts back with a CSRF token, and cannot be framed", async () => {
      const r = await get(authorizeQuery(w.web, { scope: "api openid" }));
      expect(r.status).toBe(200);
      expect(r.headers["x-frame-options"]).toBe("DENY");
      expect(r.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
      expect(r.headers["referrer-policy"]).toBe("no-referrer");
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.text).toContain("Authorize Web App?");
      expect(r.text).toContain("Read and change everything you can reach through the API");
      expect(r.text).toContain('<form method="post" action="/oauth/authorize">');
      expect(r.text).toMatch(/value="approve"[^>]*>Approve</);
      expect(r.text).toMatch(/value="deny">Deny</);
      expect(consentFields(r.text)["consent_token"]).toMatch(/^\d+\.[\w-]{22}\.[\w-]{43}$/);
      expect(r.text).not.toMatch(/<script|<img|<link|https?:\/\/(?!app\.example)[^"]*\.(js|css)/);
    });

    it("approve: 302 (never 307) to the redirect URI with a code and the state unchanged", async () => {
      const r = await consent(w, w.web, "approve", { state: "xyz/+ =" });
      expect(r.status).toBe(302);
      expect(r.headers.location!.startsWith("https://app.example/cb?")).toBe(true);
      expect(params(r).get("code")).toMatch(/^fkoc_[\w-]{43}$/);
      expect(params(r).get("state")).toBe("xyz/+ =");
    });

    it("deny: 302 with error=access_denied and the state", async () => {
      const r = await consent(w, w.web, "deny");
      expect(r.status).toBe(302);
      expect(params(r).get("error")).toBe("access_denied");
      expect(params(r).get("state")).toBe("st-1");
      expect(params(r).has("code")).toBe(false);
    });

    it("a POST without the CSRF token, with a forged one, or with another user's is refused with 403", async () => {
      const page = await get(authorizeQuery(w.web));
      const fields = consentFields(page.text);
      const { consent_token: token, ...withoutToken } = fields;
      const attempts = [
        { form: { ...withoutToken, decision: "approve" }, user: "alice" as const },
        { form: { ...fields, consent_token: `${token!.split(".")[0]!}.${"A".repeat(43)}`, decision: "approve" }, user: "alice" as const },
        { form: { ...fields, decision: "approve" }, user: "bob" as const },
        { form: { ...fields, scope: "api read_user", decision: "approve" }, user: "alice" as const },
      ];
      for (const { form, user } of attempts) {
        const r = await w.post("/oauth/authorize", form, { cookie: w.cookie(user) });
        expect(r.status).toBe(403);
        expect(r.headers.location).toBeUndefined();
      }
    });

    it("a consent token is single-use: a replay gets the invalid-form 403 page and no code", async () => {
      const page = await get(authorizeQuery(w.web));
      const form: Record<string, string> = { ...consentFields(page.text), decision: "approve" };
      const first = await w.post("/oauth/authorize", form, { cookie: w.cookie("alice") });
      expect(first.status).toBe(302);
      expect(params(first).get("code")).not.toBeNull();
      const forged = await w.post("/oauth/authorize", { ...form, consent_token: `${form.consent_token!.slice(0, -1)}A` }, { cookie: w.cookie("alice") });
      for (const decision of ["approve", "deny"]) {
        const replay = await w.post("/oauth/authorize", { ...form, decision }, { cookie: w.cookie("alice") });
        expect(replay.status).toBe(403);
        expect(replay.headers.location).toBeUndefined();
        expect(replay.text).toBe(forged.text);
      }
    });

    it("a consent token posted twice at once gives one code", async () => {
      const page = await get(authorizeQuery(w.web));
      const form = { ...consentFields(page.text), decision: "approve" };
      const [a, b] = await Promise.all([w.post("/oauth/authorize", form, { cookie: w.cookie("alice") }), w.post("/oauth/authorize", form, { cookie: w.cookie("alice") })]);
      expect([a.status, b.status].sort()).toEqual([302, 403]);
      const winner = a.status === 302 ? a : b;
      expect(params(winner).get("code")).toMatch(/^fkoc_/);
    });

    it("a consent form older than its lifetime is refused", async () => {
      const page = await get(authorizeQuery(w.web));
      w.t.clock.advance(3601 * 1000);
      const r = await w.post("/oauth/authorize", { ...consentFields(page.text), decision: "approve" }, { cookie: w.cookie("alice") });
      expect(r.status).toBe(403);
    });

    it("a consent POST after the session ended goes to the login page, then back to the request", async () => {
      const page = await get(authorizeQuery(w.web));
      const r = await w.post("/oauth/authorize", { ...consentFields(page.text), decision: "approve" });
      expect(r.status).toBe(302);
      const back = new URL(new URL(r.headers.location!, "https://host.example").searchParams.get("return_to")!);
      expect(back.searchParams.get("client_id")).toBe(w.web.app.uid);
      expect(back.searchParams.has("consent_token")).toBe(false);
    });

    it("a decision other than approve or deny is a 400 page", async () => {
      const page = await get(authorizeQuery(w.web));
      const r = await w.post("/oauth/authorize", { ...consentFields(page.text), decision: "maybe" }, { cookie: w.cookie("alice") });
      expect(r.status).toBe(400);
    });

    it("a consent POST that is not form-encoded is a 400 page", async () => {
      const r = await w.call("POST", "/oauth/authorize", { json: { client_id: w.web.app.uid }, headers: { cookie: w.cookie("alice") } });
      expect(r.status).toBe(400);
      expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    });

    it("a trusted application skips the consent page", async () => {
      const r = await get(authorizeQuery(trusted));
      expect(r.status).toBe(302);
      expect(params(r).get("code")).toMatch(/^fkoc_/);
    });

    it("a blocked user gets an error page", async () => {
      await w.t.createUser({ username: "carol", state: "blocked" });
      const r = await w.call("GET", "/oauth/authorize", { query: authorizeQuery(w.web), headers: { cookie: w.cookie("carol") } });
      expect(r.status).toBe(403);
      expect(r.headers.location).toBeUndefined();
    });

    it("logs: no issued code, token, secret or password appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
