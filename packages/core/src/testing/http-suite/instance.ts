/** Instance routes: `GET /version`, `GET /metadata`, `GET`/`PUT /application/settings`. */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

export const instanceSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  const as = (token: string) => ({ "private-token": token });

  describe("GET /version", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    it("answers a MAJOR.MINOR.PATCH version and forgekit's revision to any signed-in user", async () => {
      const r = await h.request("GET", "/api/v4/version", { headers: as(t.tokens.bob) });
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.json).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/), revision: expect.stringMatching(/^forgekit-\d+\.\d+\.\d+/) });
    });
    it("anonymous → 401", async () => {
      const r = await h.request("GET", "/api/v4/version");
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: "401 Unauthorized" });
    });
    it("a read_user token may read it; a read_repository token may not", async () => {
      const readUser = await t.createToken(t.users.bob.id, { scopes: ["read_user"] });
      expect((await h.request("GET", "/api/v4/version", { headers: as(readUser.plaintext) })).status).toBe(200);
      const repo = await t.createToken(t.users.bob.id, { scopes: ["read_repository"] });
      const r = await h.request("GET", "/api/v4/version", { headers: as(repo.plaintext) });
      expect(r.status).toBe(403);
      expect((r.json as Json)["error"]).toBe("insufficient_scope");
    });
  });

  describe("GET /metadata", () => {
    beforeAll(async () => {
      t = await createTestForgekit({ tier: "premium" });
      await h.serve(t.fk);
    });
    it("answers the version, a disabled Kubernetes agent server and the edition", async () => {
      const version = (await h.request("GET", "/api/v4/version", { headers: as(t.tokens.alice) })).json as Json;
      const r = await h.request("GET", "/api/v4/metadata", { headers: as(t.tokens.alice) });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        version: version["version"],
        revision: version["revision"],
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
        enterprise: true,
      });
    });
    it("anonymous → 401", async () => {
      expect((await h.request("GET", "/api/v4/metadata")).status).toBe(401);
    });
  });

  describe("GET /application/settings", () => {
    beforeAll(async () => {
      t = await createTestForgekit({ passwordAuthenticationForGit: false });
      await h.serve(t.fk);
    });
    it("administrators read the settings forgekit has", async () => {
      const r = await h.request("GET", "/api/v4/application/settings", { headers: as(t.tokens.root) });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ impersonation_enabled: true, default_branch_protection: 2, password_authentication_enabled_for_git: false });
    });
    it("anonymous → 401, non-administrator → 403", async () => {
      expect((await h.request("GET", "/api/v4/application/settings")).status).toBe(401);
      const r = await h.request("GET", "/api/v4/application/settings", { headers: as(t.tokens.alice) });
      expect(r.status).toBe(403);
      expect(r.json).toEqual({ message: "403 Forbidden" });
    });
  });

  describe("PUT /application/settings", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    const put = (body: unknown, token = t.tokens.root) => h.request("PUT", "/api/v4/application/settings", { headers: as(token), json: body });

    it("impersonation_enabled=false disables impersonation tokens (spec Authentication rule 3)", async () => {
      const impersonation = await t.createToken(t.users.bob.id, { kind: "impersonation" });
      const r = await put({ impersonation_enabled: false });
      expect(r.status).toBe(200);
      expect((r.json as Json)["impersonation_enabled"]).toBe(false);
      const refused = await h.request("GET", "/api/v4/user", { headers: as(impersonation.plaintext) });
      expect(refused.status).toBe(401);
      expect((await put({ impersonation_enabled: true })).status).toBe(200);
      expect((await h.request("GET", "/api/v4/user", { headers: as(impersonation.plaintext) })).status).toBe(200);
    });
    it("impersonation_enabled=null removes the setting, which re-enables impersonation", async () => {
      await put({ impersonation_enabled: false });
      const r = await put({ impersonation_enabled: null });
      expect((r.json as Json)["impersonation_enabled"]).toBe(true);
      expect(await t.store.settings.get("impersonation_enabled")).toBeNull();
    });
    it("booleans arrive in the query too (python-gitlab's True/False)", async () => {
      const r = await h.request("PUT", "/api/v4/application/settings", { headers: as(t.tokens.root), query: { impersonation_enabled: "False" } });
      expect((r.json as Json)["impersonation_enabled"]).toBe(false);
      await put({ impersonation_enabled: true });
    });
    it("a value that is not a boolean → 400 impersonation_enabled is invalid", async () => {
      const r = await put({ impersonation_enabled: "maybe" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "impersonation_enabled is invalid" });
    });
    it("default_branch_protection: 0 … 4 is stored and shown; null restores the configured default (2); anything else → 400", async () => {
      const r = await put({ default_branch_protection: 0 });
      expect([r.status, (r.json as Json)["default_branch_protection"]]).toEqual([200, 0]);
      expect(await t.store.settings.get("default_branch_protection")).toBe("0");
      expect(((await put({ default_branch_protection: null })).json as Json)["default_branch_protection"]).toBe(2);
      const bad = await put({ default_branch_protection: 5 });
      expect([bad.status, bad.json]).toEqual([400, { error: "default_branch_protection does not have a valid value" }]);
      expect((await put({ default_branch_protection: "full" })).status).toBe(400);
    });
    it("password_authentication_enabled_for_git belongs to the configuration → 400 with the reason", async () => {
      const r = await put({ password_authentication_enabled_for_git: false });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ message: { password_authentication_enabled_for_git: ["is set in the instance's configuration (passwordAuthenticationForGit)"] } });
    });
    it("non-administrator → 403 and nothing changes; a read_api token cannot write (403 insufficient_scope)", async () => {
      // The setting the refused writes try to change, stored by the test itself: other tests leave it set or removed.
      expect((await put({ impersonation_enabled: true })).status).toBe(200);
      expect(await t.store.settings.get("impersonation_enabled")).toBe("true");
      expect((await put({ impersonation_enabled: false }, t.tokens.alice)).status).toBe(403);
      const readApi = await t.createToken(t.users.root.id, { scopes: ["read_api"] });
      const r = await put({ impersonation_enabled: false }, readApi.plaintext);
      expect(r.status).toBe(403);
      expect((r.json as Json)["error"]).toBe("insufficient_scope");
      expect(await t.store.settings.get("impersonation_enabled")).toBe("true");
    });
  });

  describe("GET /openapi.json (config openapi.serve)", () => {
    let served: TestForgekit;
    let plain: TestForgekit;
    beforeAll(async () => {
      served = await createTestForgekit({ openapi: { serve: true } });
      plain = await createTestForgekit();
    });
    it("serve: true → the instance's OpenAPI 3.1 document, to anyone, as application/json", async () => {
      await h.serve(served.fk);
      const r = await h.request("GET", "/api/v4/openapi.json");
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/json");
      const doc = r.json as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
      expect(doc).toEqual(served.fk.openApi());
      expect(doc.openapi).toBe("3.1.0");
      expect(doc.servers).toEqual([{ url: `${served.fk.config.baseUrl}/api/v4` }]);
      expect(Object.keys(doc.paths["/openapi.json"] ?? {})).toEqual(["get"]);
      expect(Object.keys(doc.paths["/projects/{id}/events"] ?? {})).toEqual(["get"]);
      // Signed-in callers get the same document.
      expect((await h.request("GET", "/api/v4/openapi.json", { headers: as(served.tokens.alice) })).json).toEqual(doc);
    });
    it("off by default: the usual unknown-route 404", async () => {
      await h.serve(plain.fk);
      const r = await h.request("GET", "/api/v4/openapi.json");
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "404 Not Found" });
      expect(plain.fk.routes.some((route) => route.path === "/openapi.json")).toBe(false);
      // The document is still available to the host.
      expect(plain.fk.openApi().paths["/openapi.json"]).toBeUndefined();
    });
  });
};
