/**
 * Admin REST endpoints for OAuth applications over HTTP: `GET/POST /api/v4/applications`,
 * `POST /api/v4/applications/:id/renew-secret`, `DELETE /api/v4/applications/:id` (reference shapes).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { expectNoSecretsLogged, oauthWorld, type OAuthWorld } from "./oauth-fixture.js";

type Json = Record<string, unknown>;

/** HTTP suite: the OAuth applications API (`/applications`). */
export const oauthApplicationsApiSuite: HttpSuite = (h) => {
  describe("OAuth: /api/v4/applications", () => {
    let w: OAuthWorld;
    const as = (user: "root" | "alice") => ({ "private-token": user === "root" ? w.t.tokens.root : w.t.tokens.alice });

    beforeAll(async () => {
      w = await oauthWorld(h);
    });

    it("POST creates an application: 201 with the secret shown once", async () => {
      const r = await w.call("POST", "/api/v4/applications", {
        headers: as("root"),
        json: { name: "CI dashboard", redirect_uri: "https://ci.example/cb\nhttp://127.0.0.1/cb", scopes: "api read_user", confidential: false },
      });
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        id: expect.any(Number) as unknown,
        application_id: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
        application_name: "CI dashboard",
        secret: expect.stringMatching(/^fkos_[\w-]{43}$/) as unknown,
        callback_url: "https://ci.example/cb\nhttp://127.0.0.1/cb",
        confidential: false,
      });
      const list = await w.call("GET", "/api/v4/applications", { headers: as("root") });
      expect(list.status).toBe(200);
      const listed = (list.json as Json[]).find((a) => a["id"] === (r.json as Json)["id"]);
      expect(listed).toBeDefined();
      expect(listed!["secret"]).toBeUndefined();
    });

    it("a form-encoded POST works too, and the application works at the authorization endpoint", async () => {
      const created = await w.call("POST", "/api/v4/applications", {
        headers: { ...as("root"), "content-type": "application/x-www-form-urlencoded" },
        body: "name=Form+app&redirect_uri=https%3A%2F%2Fform.example%2Fcb&scopes=read_user",
      });
      expect(created.status).toBe(201);
      const page = await w.call("GET", "/oauth/authorize", {
        query: { client_id: String((created.json as Json)["application_id"]), redirect_uri: "https://form.example/cb", response_type: "code", scope: "read_user" },
        headers: { cookie: w.cookie("alice") },
      });
      expect(page.status).toBe(200);
      expect(page.text).toContain("Authorize Form app?");
    });

    it("POST validates: missing name, bad redirect URI, unknown scope", async () => {
      const missing = await w.call("POST", "/api/v4/applications", { headers: as("root"), json: { redirect_uri: "https://x.example/cb", scopes: "api" } });
      expect(missing.status).toBe(400);
      expect(missing.json).toEqual({ message: '400 (Bad request) "name" not given' });
      const invalid = await w.call("POST", "/api/v4/applications", { headers: as("root"), json: { name: "x", redirect_uri: "javascript:alert(1)", scopes: "api nope" } });
      expect(invalid.status).toBe(400);
      expect((invalid.json as { message: Json }).message).toEqual({
        redirect_uri: ["must not use the data, javascript or vbscript scheme"],
        scopes: ["don't exist: nope"],
      });
    });

    it("renew-secret returns a new secret; the old one stops authenticating", async () => {
      const app = await w.register({ name: "Renewed" });
      const r = await w.call("POST", `/api/v4/applications/${app.app.id}/renew-secret`, { headers: as("root") });
      expect(r.status).toBe(201);
      const secret = (r.json as Json)["secret"] as string;
      expect(secret).not.toBe(app.secret);
      const old = await w.post("/oauth/revoke", { token: "fkoa_x", client_id: app.app.uid, client_secret: app.secret });
      expect(old.status).toBe(401);
      const fresh = await w.post("/oauth/revoke", { token: "fkoa_x", client_id: app.app.uid, client_secret: secret });
      expect(fresh.status).toBe(200);
    });

    it("DELETE removes the application (204) and its tokens; unknown → 404", async () => {
      const app = await w.register({ name: "Doomed" });
      const r = await w.call("DELETE", `/api/v4/applications/${app.app.id}`, { headers: as("root") });
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      const again = await w.call("DELETE", `/api/v4/applications/${app.app.id}`, { headers: as("root") });
      expect(again.status).toBe(404);
      expect(again.json).toEqual({ message: "404 Application Not Found" });
      // Past the stores' 32-bit id columns: a malformed id, never a store error.
      for (const [method, path] of [["DELETE", "/api/v4/applications/99999999999"], ["POST", "/api/v4/applications/99999999999/renew-secret"]] as const) {
        const r = await w.call(method, path, { headers: as("root") });
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ error: "id is invalid" });
      }
    });

    it("administrators only: anonymous → 401, a non-admin → 403", async () => {
      expect((await w.call("GET", "/api/v4/applications")).status).toBe(401);
      const r = await w.call("GET", "/api/v4/applications", { headers: as("alice") });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden" });
      expect((await w.call("POST", "/api/v4/applications", { headers: as("alice"), json: { name: "x", redirect_uri: "https://x.example/cb", scopes: "api" } })).status).toBe(403);
    });

    it("logs: no issued secret appears", () => {
      expectNoSecretsLogged(w);
    });
  });
};
