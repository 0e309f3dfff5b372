/** Convention suite: routing (spec "Endpoints" preamble, "General status codes"; reference §3.3). */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createConventionInstance } from "./conventions-fixture.js";

const SECURITY = { "x-content-type-options": "nosniff", "x-frame-options": "SAMEORIGIN" };

/**
 * HTTP suite: routing — unknown routes, encoded full paths as ids, percent-decoding, `.json` suffixes and
 * trailing slashes.
 */
export const routingSuite: HttpSuite = (h) => {
  describe("conventions: routing", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance());
    });

    it("unknown route → 404 {\"error\":\"404 Not Found\"} with exactly application/json", async () => {
      const r = await h.request("GET", "/api/v4/no/such/route");
      expect(r.status).toBe(404);
      expect(r.text).toBe('{"error":"404 Not Found"}');
      expect(r.headers).toMatchObject({ "content-type": "application/json", ...SECURITY });
    });

    it("`:id` matches a %2F-encoded full path as one segment", async () => {
      const r = await h.request("GET", "/api/v4/projects/grp%2Fproject-3");
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ id: 3, name: "project-3", path_with_namespace: "grp/project-3" });
    });

    it("an un-encoded / inside an id matches no route → 404", async () => {
      const r = await h.request("GET", "/api/v4/projects/grp/project-3");
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "404 Not Found" });
    });

    it("placeholders are percent-decoded; + in a path stays a plus", async () => {
      const r = await h.request("GET", "/api/v4/projects/1/files/dir%2Fa%20b+c.txt/raw");
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ path: { id: "1", file_path: "dir/a b+c.txt" } });
    });

    it(".json suffix is tolerated when the route's last segment is a literal", async () => {
      const version = await h.request("GET", "/api/v4/version.json");
      expect(version.status).toBe(200);
      expect(version.json).toEqual({ version: "17.0.0" });
      const list = await h.request("GET", "/api/v4/projects.json");
      expect(list.status).toBe(200);
    });

    it(".json inside an :id stays part of the id → 404 Project Not Found", async () => {
      const r = await h.request("GET", "/api/v4/projects/5.json");
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: "404 Project Not Found" });
    });

    it("one trailing slash is tolerated", async () => {
      const r = await h.request("GET", "/api/v4/version/");
      expect(r.status).toBe(200);
    });

    it("known path + wrong method → 405 {\"message\":\"405 Method Not Allowed\"} with Allow", async () => {
      const r = await h.request("PATCH", "/api/v4/projects/1");
      expect(r.status).toBe(405);
      expect(r.text).toBe('{"message":"405 Method Not Allowed"}');
      expect(r.headers["allow"]).toBe("GET, HEAD, PUT, DELETE, OPTIONS");
      expect(r.headers["content-type"]).toBe("application/json");
    });

    it("OPTIONS on a known path → 204 with Allow and no content type", async () => {
      const r = await h.request("OPTIONS", "/api/v4/projects");
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect(r.headers["allow"]).toBe("GET, HEAD, POST, OPTIONS");
      expect(r.headers["content-type"]).toBeUndefined();
    });

    it("OPTIONS on an unknown path → 404", async () => {
      const r = await h.request("OPTIONS", "/api/v4/nothing");
      expect(r.status).toBe(404);
    });

    it("HEAD is served as GET without a body", async () => {
      const get = await h.request("GET", "/api/v4/projects/1");
      const head = await h.request("HEAD", "/api/v4/projects/1");
      expect(head.status).toBe(200);
      expect(head.text).toBe("");
      expect(head.headers["content-type"]).toBe("application/json");
      expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(get.text)));
    });

    it("status defaults: GET 200, POST 201, PUT 200, DELETE 204 without content type", async () => {
      const auth = { "private-token": "fixture-valid" };
      expect((await h.request("GET", "/api/v4/version")).status).toBe(200);
      expect((await h.request("POST", "/api/v4/projects", { json: { name: "x" }, headers: auth })).status).toBe(201);
      expect((await h.request("PUT", "/api/v4/projects/1", { json: {} })).status).toBe(200);
      const del = await h.request("DELETE", "/api/v4/projects/1");
      expect(del.status).toBe(204);
      expect(del.text).toBe("");
      expect(del.headers["content-type"]).toBeUndefined();
      expect(del.headers).toMatchObject(SECURITY);
    });

    it("an empty result body is sent without a JSON content type (202 here)", async () => {
      const r = await h.request("POST", "/api/v4/empty");
      expect(r.status).toBe(202);
      expect(r.text).toBe("");
      expect(r.headers["content-type"]).toBeUndefined();
    });
  });
};
