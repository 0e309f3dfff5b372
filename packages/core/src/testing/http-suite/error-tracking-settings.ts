/** `GET`, `PUT`, `PATCH /projects/:id/error_tracking/settings` (spec "Error-tracking"; reference §5.1). */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { must } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";
import { as, BODIES, errorTrackingWorld, expectJson, type ErrorTrackingWorld } from "./error-tracking-kit.js";

const shape = (active: boolean, integrated: boolean) => ({ active, project_name: null, sentry_external_url: null, api_url: null, integrated });

/** Error-tracking settings endpoints. */
export const errorTrackingSettingsSuite: HttpSuite = (h) => {
  let w: ErrorTrackingWorld;
  const path = (id: number | string) => `/api/v4/projects/${id}/error_tracking/settings`;
  const call = (method: string, token?: string, options: { id?: number | string; json?: unknown; query?: Record<string, string> } = {}) =>
    h.request(method, path(options.id ?? w.project.id), {
      headers: as(token),
      ...(options.json === undefined ? {} : { json: options.json }),
      ...(options.query === undefined ? {} : { query: options.query }),
    });
  const reset = async () => {
    // Each case starts from "nothing configured" on a fresh project of its own.
    w = await errorTrackingWorld();
    await h.serve(w.t.fk);
  };

  describe("GET /projects/:id/error_tracking/settings", () => {
    beforeAll(reset);

    it("anonymous → 401", async () => expectJson(await call("GET"), 401, BODIES.unauthorized));
    it("Reporter and Developer → 403 (Maintainer role required)", async () => {
      expectJson(await call("GET", w.tokens.reporter), 403, BODIES.forbidden);
      expectJson(await call("GET", w.tokens.developer), 403, BODIES.forbidden);
    });
    it("a private project the caller cannot see → 404 Project Not Found", async () => {
      expectJson(await call("GET", w.tokens.outsider, { id: w.t.projects.hidden.id }), 404, BODIES.projectNotFound);
      expectJson(await call("GET", w.tokens.maintainer, { id: 999_999 }), 404, BODIES.projectNotFound);
      expectJson(await call("GET", w.tokens.admin, { id: 2_147_483_648 }), 404, BODIES.projectNotFound);
    });
    it("nothing configured yet → 404 Error Tracking Setting Not Found", async () => {
      // A project of its own that no other case configures, with the same Maintainer.
      const { t } = w;
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "unconfigured", name: "unconfigured", visibility: "public", creatorId: t.users.alice.id });
      await t.addMember({ project }, await must(t.fk.users.findByUsername("maintainer")), AccessLevel.Maintainer);
      expectJson(await call("GET", w.tokens.maintainer, { id: project.id }), 404, BODIES.noSettings);
    });
    it("Maintainer reads the settings; the external Sentry fields are null", async () => {
      await must(w.t.fk.errorTracking.putSettings(w.project.id, { active: true, integrated: true }));
      expectJson(await call("GET", w.tokens.maintainer), 200, shape(true, true));
    });
    it("the project may be named by its URL-encoded path; administrators may read it", async () => {
      await must(w.t.fk.errorTracking.putSettings(w.project.id, { active: true, integrated: true }));
      expectJson(await call("GET", w.tokens.admin, { id: "grp%2Fpublic-project" }), 200, shape(true, true));
    });
    it("a read_api token may read", async () => {
      await must(w.t.fk.errorTracking.putSettings(w.project.id, { active: true, integrated: true }));
      expectJson(await call("GET", w.tokens.readApi), 200, shape(true, true));
    });
  });

  describe("PUT /projects/:id/error_tracking/settings", () => {
    beforeEach(reset);

    it("anonymous → 401", async () => expectJson(await call("PUT", undefined, { json: { active: true, integrated: true } }), 401, BODIES.unauthorized));
    it("Developer → 403, before its parameters are looked at", async () => {
      expectJson(await call("PUT", w.tokens.developer, { json: { active: "maybe" } }), 403, BODIES.forbidden);
    });
    it("a private project the caller cannot see → 404", async () => {
      expectJson(await call("PUT", w.tokens.outsider, { id: w.t.projects.hidden.id, json: { active: true, integrated: true } }), 404, BODIES.projectNotFound);
    });
    it("a read_api token → 403 insufficient_scope", async () => {
      const r = await call("PUT", w.tokens.readApi, { json: { active: true, integrated: true } });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject({ error: "insufficient_scope", scope: expect.stringMatching(/\bapi\b/) });
    });
    it("creates the settings when none exist", async () => {
      expectJson(await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } }), 200, shape(true, true));
      expectJson(await call("GET", w.tokens.maintainer), 200, shape(true, true));
    });
    it("replaces both flags of existing settings", async () => {
      await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } });
      expectJson(await call("PUT", w.tokens.maintainer, { json: { active: false, integrated: false } }), 200, shape(false, false));
      expectJson(await call("GET", w.tokens.maintainer), 200, shape(false, false));
    });
    it("booleans may come in the query (gitbeaker), in python-gitlab's spelling too", async () => {
      expectJson(await call("PUT", w.tokens.maintainer, { query: { active: "true", integrated: "false" }, json: {} }), 200, shape(true, false));
      expectJson(await call("PUT", w.tokens.maintainer, { query: { active: "False", integrated: "True" } }), 200, shape(false, true));
    });
    it("missing integrated → 400 \"integrated\" not given", async () => {
      expectJson(await call("PUT", w.tokens.maintainer, { json: { active: true } }), 400, { message: '400 (Bad request) "integrated" not given' });
    });
    it("missing active → 400 \"active\" not given", async () => {
      expectJson(await call("PUT", w.tokens.maintainer, { json: { integrated: true } }), 400, { message: '400 (Bad request) "active" not given' });
    });
    it("a non-boolean → 400 <param> is invalid; nothing is created", async () => {
      expectJson(await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: "sometimes" } }), 400, { error: "integrated is invalid" });
      expectJson(await call("PUT", w.tokens.maintainer, { json: { active: null, integrated: true } }), 400, { error: "active is invalid" });
      expectJson(await call("GET", w.tokens.maintainer), 404, BODIES.noSettings);
    });
  });

  describe("PATCH /projects/:id/error_tracking/settings", () => {
    beforeEach(reset);

    it("anonymous → 401", async () => expectJson(await call("PATCH", undefined, { json: { active: true } }), 401, BODIES.unauthorized));
    it("Reporter → 403", async () => expectJson(await call("PATCH", w.tokens.reporter, { json: { active: true } }), 403, BODIES.forbidden));
    it("nothing configured yet → 404 Error Tracking Setting Not Found, and nothing is created", async () => {
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: true } }), 404, BODIES.noSettings);
      expectJson(await call("GET", w.tokens.maintainer), 404, BODIES.noSettings);
    });
    it("changes active and keeps integrated when it is not given", async () => {
      await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: false } }), 200, shape(false, true));
      expectJson(await call("GET", w.tokens.maintainer), 200, shape(false, true));
    });
    it("changes integrated when it is given", async () => {
      await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: true, integrated: false } }), 200, shape(true, false));
    });
    it("booleans may come in the query with an empty JSON body (gitbeaker)", async () => {
      await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } });
      expectJson(await call("PATCH", w.tokens.maintainer, { query: { active: "false" }, json: {} }), 200, shape(false, true));
    });
    it("active is required: missing → not given, blank → is empty, other → is invalid", async () => {
      await call("PUT", w.tokens.maintainer, { json: { active: true, integrated: true } });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { integrated: false } }), 400, { message: '400 (Bad request) "active" not given' });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: "" } }), 400, { error: "active is empty" });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: "yes please" } }), 400, { error: "active is invalid" });
      expectJson(await call("PATCH", w.tokens.maintainer, { json: { active: true, integrated: 7 } }), 400, { error: "integrated is invalid" });
      expectJson(await call("GET", w.tokens.maintainer), 200, shape(true, true));
    });
  });
};
