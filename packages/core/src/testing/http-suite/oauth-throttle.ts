/**
 * Brute-force throttling and input bounds of `POST /oauth/token` over HTTP (checklist B5, E1;
 * issue 8): per-address counting across usernames, no lockout of a client by strangers, the
 * clientless password grant's scopes, oversized fields refused with 400 `invalid_request`, and
 * log lines that stay small whatever a request carried.
 *
 * The suite serves the instance behind a wrapper that takes the client address from an
 * `x-test-address` header, so every host (including the fetch handler, which has no socket
 * address) can play several addresses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { expectNoSecretsLogged, oauthWorld, type OAuthWorld, type RegisteredApp } from "./oauth-fixture.js";
import { expectTokenHeaders } from "./oauth-token-code.js";

const WINDOW = 60;

export const oauthThrottleSuite: HttpSuite = (h) => {
  describe("OAuth: throttling and input bounds of POST /oauth/token", () => {
    let w: OAuthWorld;
    let ropc: RegisteredApp;
    const from = (address: string, form: Record<string, string>) => w.post("/oauth/token", form, { "x-test-address": address });
    const password = (address: string, fields: Record<string, string>) => from(address, { grant_type: "password", ...fields });

    beforeAll(async () => {
      w = await oauthWorld(h, { oauth: { rateLimit: { maxFailures: 3, maxFailuresPerAddress: 6, windowSeconds: WINDOW } } });
      ropc = await w.register({ name: "Password client", ropcEnabled: true, scopes: ["api", "read_user"] });
      const fk = w.t.fk;
      await h.serve({ maxBodyBytes: fk.maxBodyBytes, handle: (req) => fk.handle({ ...req, remoteAddress: req.headers["x-test-address"] ?? req.remoteAddress ?? "unknown" }) });
    });

    it("B5: failures count per address across usernames — 429 with Retry-After, other addresses unaffected, lifted after the window", async () => {
      for (let i = 0; i < 6; i++) {
        const r = await password("203.0.113.1", { username: `nobody-${i}`, password: "guess" });
        expect(r.status).toBe(400);
        expect(r.json).toMatchObject({ error: "invalid_grant" });
      }
      const blocked = await password("203.0.113.1", { username: "alice", password: "alice-password" });
      expect(blocked.status).toBe(429);
      expectTokenHeaders(blocked);
      expect(blocked.headers["retry-after"]).toBe(String(WINDOW));
      expect(blocked.json).toEqual({ error: "rate_limited", error_description: "Too many failed attempts. Try again later." });
      expect((await password("203.0.113.2", { username: "alice", password: "alice-password" })).status).toBe(200);
      w.t.clock.advance(WINDOW * 1000);
      expect((await password("203.0.113.1", { username: "alice", password: "alice-password" })).status).toBe(200);
    });

    it("B5: wrong secrets from strangers never lock out the client that presents its own", async () => {
      for (let i = 0; i < 3; i++) {
        const r = await password(`198.51.100.${i}`, { username: "alice", password: "alice-password", client_id: ropc.app.uid, client_secret: `wrong-${i}` });
        expect(r.status).toBe(401);
      }
      // The id has had its failures: more wrong secrets get 429, from any address…
      expect((await password("198.51.100.9", { username: "alice", password: "alice-password", client_id: ropc.app.uid, client_secret: "wrong" })).status).toBe(429);
      // …while the real client is served.
      const real = await password("192.0.2.10", { username: "alice", password: "alice-password", client_id: ropc.app.uid, client_secret: ropc.secret });
      expect(real.status, real.text).toBe(200);
    });

    it("E1: without client authentication only the default scope (api) is issued — no sudo, no admin_mode", async () => {
      for (const scope of ["sudo", "admin_mode", "api sudo"]) {
        const r = await password("192.0.2.20", { username: "root", password: "root-password", scope });
        expect(r.status).toBe(400);
        expect(r.json).toMatchObject({ error: "invalid_scope" });
      }
      const r = await password("192.0.2.20", { username: "root", password: "root-password" });
      expect(r.status).toBe(200);
      const info = await w.call("GET", "/oauth/token/info", { headers: { authorization: `Bearer ${String((r.json as { access_token: string }).access_token)}` } });
      expect(info.json).toMatchObject({ scope: ["api"] });
    });

    it.each([
      ["username", { grant_type: "password", username: "u".repeat(256), password: "p" }, 255],
      ["client_id", { grant_type: "password", username: "alice", password: "p", client_id: "i".repeat(900_000) }, 255],
      ["scope", { grant_type: "password", username: "alice", password: "p", scope: "api ".repeat(300) }, 1024],
      ["redirect_uri", { grant_type: "authorization_code", code: "c", redirect_uri: `https://app.example/${"x".repeat(2000)}` }, 2000],
    ])("an oversized %s is 400 invalid_request (RFC 6749 §5.2), and nothing is logged at its size", async (name, form, max) => {
      const before = w.logs.length;
      const r = await from("192.0.2.30", form);
      expect(r.status).toBe(400);
      expectTokenHeaders(r);
      expect(r.json).toEqual({ error: "invalid_request", error_description: `Parameter too long: ${name} (at most ${max} characters).` });
      for (const entry of w.logs.slice(before)) expect(JSON.stringify(entry).length).toBeLessThan(4096);
    });

    it("H3: no secret issued or sent reached the log", () => {
      expectNoSecretsLogged(w);
    });
  });
};
