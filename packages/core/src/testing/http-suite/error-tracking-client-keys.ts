/** `GET`, `POST /projects/:id/error_tracking/client_keys`, `DELETE …/client_keys/:key_id` (spec "Error-tracking"; reference §5.2). */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { must } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";
import { as, BODIES, errorTrackingWorld, expectJson, type ErrorTrackingWorld } from "./error-tracking-kit.js";

type Key = { id: number; active: boolean; public_key: string; sentry_dsn: string };

/** Error-tracking client-key endpoints. */
export const errorTrackingClientKeysSuite: HttpSuite = (h) => {
  let w: ErrorTrackingWorld;
  const path = (id: number | string = w.project.id) => `/api/v4/projects/${id}/error_tracking/client_keys`;
  const reset = async () => {
    w = await errorTrackingWorld();
    await h.serve(w.t.fk);
  };
  const create = async (token = w.tokens.maintainer, id: number | string = w.project.id) => (await h.request("POST", path(id), { headers: as(token) })).json as Key;
  let projects = 0;
  /**
   * A project of the test's own, with the world's Maintainer (and so its `read_api` token) on it as
   * on `w.project`: no other test makes keys there.
   */
  const ownProject = async () => {
    const project = await w.t.createProject({ namespaceId: w.t.groups.grp.id, path: `keys-${++projects}`, name: `keys-${projects}`, visibility: "public", creatorId: w.t.users.alice.id });
    await w.t.addMember({ project }, await must(w.t.fk.users.findByUsername("maintainer")), AccessLevel.Maintainer);
    return project;
  };

  describe("GET /projects/:id/error_tracking/client_keys", () => {
    beforeAll(reset);

    it("anonymous → 401", async () => expectJson(await h.request("GET", path()), 401, BODIES.unauthorized));
    it("Reporter and Developer → 403", async () => {
      expectJson(await h.request("GET", path(), { headers: as(w.tokens.reporter) }), 403, BODIES.forbidden);
      expectJson(await h.request("GET", path(), { headers: as(w.tokens.developer) }), 403, BODIES.forbidden);
    });
    it("a private project the caller cannot see → 404 Project Not Found", async () => {
      expectJson(await h.request("GET", path(w.t.projects.hidden.id), { headers: as(w.tokens.outsider) }), 404, BODIES.projectNotFound);
    });
    it("no keys yet → 200 []", async () => {
      const project = await ownProject();
      expectJson(await h.request("GET", path(project.id), { headers: as(w.tokens.maintainer) }), 200, []);
    });
    it("lists the project's keys by id, paginated with the offset headers", async () => {
      const project = await ownProject();
      const made = [await create(w.tokens.maintainer, project.id), await create(w.tokens.maintainer, project.id), await create(w.tokens.maintainer, project.id)];
      const r = await h.request("GET", path(project.id), { headers: as(w.tokens.maintainer), query: { per_page: "2" } });
      expectJson(r, 200, made.slice(0, 2));
      expect(r.headers).toMatchObject({ "x-total": "3", "x-total-pages": "2", "x-page": "1", "x-per-page": "2", "x-next-page": "2" });
      expect(r.headers["link"]).toContain(`<${w.t.baseUrl}${path(project.id)}?page=2&per_page=2>; rel="next"`);
      const second = await h.request("GET", path(project.id), { headers: as(w.tokens.readApi), query: { per_page: "2", page: "2" } });
      expectJson(second, 200, made.slice(2));
    });
  });

  describe("POST /projects/:id/error_tracking/client_keys", () => {
    beforeAll(reset);

    it("anonymous → 401", async () => expectJson(await h.request("POST", path()), 401, BODIES.unauthorized));
    it("Developer → 403", async () => expectJson(await h.request("POST", path(), { headers: as(w.tokens.developer) }), 403, BODIES.forbidden));
    it("a private project the caller cannot see → 404", async () => {
      expectJson(await h.request("POST", path(w.t.projects.hidden.id), { headers: as(w.tokens.outsider) }), 404, BODIES.projectNotFound);
    });
    it("a read_api token → 403 insufficient_scope", async () => {
      const r = await h.request("POST", path(), { headers: as(w.tokens.readApi) });
      expect([r.status, (r.json as { error?: string }).error]).toEqual([403, "insufficient_scope"]);
    });
    it("201 with exactly id, active, public_key (service prefix + 32 hex digits) and sentry_dsn", async () => {
      const r = await h.request("POST", path(), { headers: as(w.tokens.maintainer) });
      expect(r.status).toBe(201);
      expect(r.headers["content-type"]).toBe("application/json");
      const key = r.json as Key;
      expect(Object.keys(key).sort()).toEqual(["active", "id", "public_key", "sentry_dsn"]);
      expect(key).toMatchObject({ id: expect.any(Number), active: true, public_key: expect.stringMatching(/^fket_[0-9a-f]{32}$/) });
    });
    it("sentry_dsn = <scheme>://<public_key>@<host><root>/api/v4/error_tracking/collector/<project_id>", async () => {
      const key = await create();
      expect(key.sentry_dsn).toBe(`https://${key.public_key}@forge.example.com/api/v4/error_tracking/collector/${w.project.id}`);
      expect(new URL(key.sentry_dsn).username).toBe(key.public_key);
    });
    it("takes gitbeaker's empty JSON body and python-gitlab's query extras; every key is new", async () => {
      const a = await h.request("POST", path(), { headers: as(w.tokens.maintainer), json: {} });
      const b = await h.request("POST", path(), { headers: as(w.tokens.maintainer), query: { sudo: undefined, foo: "bar" } });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect((a.json as Key).public_key).not.toBe((b.json as Key).public_key);
    });
  });

  describe("DELETE /projects/:id/error_tracking/client_keys/:key_id", () => {
    beforeEach(reset);

    it("anonymous → 401", async () => {
      const key = await create();
      expectJson(await h.request("DELETE", `${path()}/${key.id}`), 401, BODIES.unauthorized);
    });
    it("Developer → 403 and the key stays", async () => {
      const key = await create();
      expectJson(await h.request("DELETE", `${path()}/${key.id}`, { headers: as(w.tokens.developer) }), 403, BODIES.forbidden);
      expect((await must(w.t.fk.errorTracking.listClientKeys(w.project.id))).total).toBe(1);
    });
    it("204 without a body or a content type; the key is gone", async () => {
      const key = await create();
      const r = await h.request("DELETE", `${path()}/${key.id}`, { headers: as(w.tokens.maintainer) });
      expect([r.status, r.text, r.headers["content-type"]]).toEqual([204, "", undefined]);
      expectJson(await h.request("GET", path(), { headers: as(w.tokens.maintainer) }), 200, []);
    });
    it("an unknown key, or a key of another project → 404 Not found", async () => {
      const other = await must(w.t.fk.errorTracking.createClientKey(w.t.projects.internalProject.id));
      expectJson(await h.request("DELETE", `${path()}/${other.id}`, { headers: as(w.tokens.admin) }), 404, BODIES.recordNotFound);
      expectJson(await h.request("DELETE", `${path()}/987654`, { headers: as(w.tokens.maintainer) }), 404, BODIES.recordNotFound);
      expectJson(await h.request("DELETE", `${path()}/2147483648`, { headers: as(w.tokens.maintainer) }), 404, BODIES.recordNotFound);
      expect((await must(w.t.fk.errorTracking.listClientKeys(w.t.projects.internalProject.id))).total).toBe(1);
    });
    it("If-Unmodified-Since before the key was created → 412 and the key stays; at or after → 204", async () => {
      const key = await create();
      const before = new Date(w.t.clock.now().getTime() - 3_600_000).toUTCString();
      const r = await h.request("DELETE", `${path()}/${key.id}`, { headers: { ...as(w.tokens.maintainer), "if-unmodified-since": before } });
      expectJson(r, 412, { message: "412 Precondition Failed" });
      expect((await must(w.t.fk.errorTracking.listClientKeys(w.project.id))).total).toBe(1);
      const at = w.t.clock.now().toUTCString();
      expect((await h.request("DELETE", `${path()}/${key.id}`, { headers: { ...as(w.tokens.maintainer), "if-unmodified-since": at } })).status).toBe(204);
    });
    it("a key_id that is not an integer → 400 key_id is invalid", async () => {
      expectJson(await h.request("DELETE", `${path()}/first`, { headers: as(w.tokens.maintainer) }), 400, { error: "key_id is invalid" });
    });
  });

  describe("DELETE /projects/:id/error_tracking/client_keys (no key_id: gitbeaker's remove)", () => {
    beforeAll(reset);

    it("405 with Allow listing GET and POST, never 2xx or 500; the keys stay", async () => {
      const key = await create();
      const r = await h.request("DELETE", path(), { headers: as(w.tokens.maintainer), json: { key_id: key.id } });
      expectJson(r, 405, { message: "405 Method Not Allowed" });
      expect(r.headers["allow"]).toContain("POST");
      expect((await must(w.t.fk.errorTracking.listClientKeys(w.project.id))).items.map((k) => k.id)).toEqual([key.id]);
    });
  });
};
