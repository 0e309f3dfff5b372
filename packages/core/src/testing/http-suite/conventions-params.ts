/**
 * Convention suite: parameter decoding and validation (spec "Endpoints" preamble; reference §3.2;
 * client-compatibility §6.12–6.15).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createConventionInstance } from "./conventions-fixture.js";

const AUTH = { "private-token": "fixture-valid" };
const TRUE = ["1", "on", "On", "ON", "t", "true", "True", "TRUE", "T", "y", "yes", "Yes", "YES", "Y"];
const FALSE = ["0", "off", "Off", "OFF", "f", "false", "False", "FALSE", "F", "n", "no", "No", "NO", "N"];

/**
 * HTTP suite: how parameters are read — query, JSON, form and multipart bodies, arrays and hashes, and
 * which source wins.
 */
export const paramsSuite: HttpSuite = (h) => {
  describe("conventions: params", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance());
    });
    const echo = async (method: string, query: string, options: { json?: unknown; body?: string; headers?: Record<string, string> } = {}) => {
      const r = await h.request(method, "/api/v4/echo", { query, ...options });
      expect(r.status).toBe(200);
      return (r.json as { params: Record<string, unknown> }).params;
    };

    it("query: + is a space, %2B is a plus", async () => {
      expect(await echo("GET", "q=a+b&since=2024-01-01T00:00:00%2B01:00")).toEqual({ q: "a b", since: "2024-01-01T00:00:00+01:00" });
    });

    it("name[]= arrays, name[key]= hashes, name[0][key]= and name[][key]= arrays of hashes", async () => {
      const params = await echo("GET", "a[]=1&a[]=2&h[x]=1&h[y][z]=2&r[0][k]=a&r[1][k]=b&s[][k]=c&s[][j]=d&s[][k]=e");
      expect(params).toEqual({
        a: ["1", "2"],
        h: { x: "1", y: { z: "2" } },
        r: [{ k: "a" }, { k: "b" }],
        s: [{ k: "c", j: "d" }, { k: "e" }],
      });
    });

    it("JSON body parameters", async () => {
      expect(await echo("POST", "", { json: { a: [1, 2], b: { c: true }, d: null } })).toEqual({ a: [1, 2], b: { c: true }, d: null });
    });

    it("form body parameters", async () => {
      const params = await echo("POST", "", { body: "a=1&b[]=x&b[]=y+z", headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(params).toEqual({ a: "1", b: ["x", "y z"] });
    });

    it("multipart/form-data fields are parameters, file parts are skipped", async () => {
      const form = new FormData();
      form.append("title", "hello world");
      form.append("labels[]", "a");
      form.append("labels[]", "b");
      form.append("file", new Blob(["binary"]), "a.bin");
      const r = await h.request("POST", "/api/v4/echo", { body: form as never });
      expect(r.status).toBe(200);
      expect((r.json as { params: unknown }).params).toEqual({ title: "hello world", labels: ["a", "b"] });
    });

    it("query and body merge on every method, body over query", async () => {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expect(await echo(method, "active=true&x=query", { json: { x: "body" } })).toEqual({ active: "true", x: "body" });
      }
    });

    // A WHATWG Request cannot carry a GET body, so fetch hosts never see one.
    it.skipIf(h.adapter.startsWith("fetch"))("a GET body merges too, body over query", async () => {
      const raw = await h.raw("GET", "/api/v4/echo?x=query&y=1", { headers: { "content-type": "application/json" }, body: '{"x":"body"}' });
      expect((raw.json as { params: unknown }).params).toEqual({ x: "body", y: "1" });
    });

    it("path values win over query and body", async () => {
      const r = await h.request("PUT", "/api/v4/projects/7", { query: "id=9", json: { id: 8 } });
      expect((r.json as { params: unknown }).params).toEqual({ id: "7" });
    });

    it("unknown params are ignored", async () => {
      const r = await h.request("POST", "/api/v4/projects", { query: "pagination=offset&id=built-in", json: { name: "p", bogus: 1 }, headers: AUTH });
      expect(r.status).toBe(201);
      expect(r.json).toEqual({ name: "p", id: "built-in" });
    });

    it("booleans: every true spelling, every false spelling, JSON booleans, also in the query of PUT", async () => {
      for (const v of TRUE) {
        const r = await h.request("POST", "/api/v4/projects", { query: { active: v }, json: { name: "n" }, headers: AUTH });
        expect([v, r.json]).toEqual([v, { name: "n", active: true }]);
      }
      for (const v of FALSE) {
        const r = await h.request("POST", "/api/v4/projects", { body: `name=n&active=${v}`, headers: { ...AUTH, "content-type": "application/x-www-form-urlencoded" } });
        expect([v, r.json]).toEqual([v, { name: "n", active: false }]);
      }
      const json = await h.request("POST", "/api/v4/projects", { json: { name: "n", active: false }, headers: AUTH });
      expect(json.json).toEqual({ name: "n", active: false });
    });

    it("a null or unknown boolean → 400 {\"error\":\"active is invalid\"}", async () => {
      for (const active of [null, "maybe", 2]) {
        const r = await h.request("POST", "/api/v4/projects", { json: { name: "n", active }, headers: AUTH });
        expect(r.status).toBe(400);
        expect(r.text).toBe('{"error":"active is invalid"}');
      }
    });

    it("missing required → 400 {\"message\":\"400 (Bad request) \\\"name\\\" not given\"}", async () => {
      const r = await h.request("POST", "/api/v4/projects", { json: {}, headers: AUTH });
      expect(r.status).toBe(400);
      expect(r.text).toBe('{"message":"400 (Bad request) \\"name\\" not given"}');
    });

    it("type error → {\"error\":\"count is invalid\"}; blank → is empty; enum → does not have a valid value", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ name: "n", count: "1.5" }, "count is invalid"],
        [{ name: "  " }, "name is empty"],
        [{ name: "n", visibility: "secret" }, "visibility does not have a valid value"],
        [{ name: "n", due_date: "2024-02-30" }, "due_date is invalid"],
        [{ name: "n", created_after: "2024-01-01T00:00:00 01:00" }, "created_after is invalid"],
        [{ name: "n", tags: "not-an-array" }, "tags is invalid"],
        [{ name: "n", rules: [{ name: "a", level: "x" }] }, "rules[0][level] is invalid"],
      ];
      for (const [json, error] of cases) {
        const r = await h.request("POST", "/api/v4/projects", { json, headers: AUTH });
        expect([json, r.status, r.json]).toEqual([json, 400, { error }]);
      }
    });

    it("several errors are joined with \", \" in one {\"error\":…}", async () => {
      const r = await h.request("POST", "/api/v4/projects", { query: "count=x&visibility=bogus&name=ok", headers: AUTH });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "visibility does not have a valid value, count is invalid" });
    });

    it("valid typed values are coerced: int, date, datetime (%2B offset) → UTC, arrays, arrays of hashes, id", async () => {
      const r = await h.request("POST", "/api/v4/projects", {
        query: "count=12&due_date=2024-02-29&created_after=2024-01-01T10:00:00%2B02:00&tags[]=a&rules[0][name]=r&rules[0][level]=30&id=grp%2Fp",
        json: { name: "n" },
        headers: AUTH,
      });
      expect(r.status).toBe(201);
      expect(r.json).toEqual({
        name: "n", count: 12, due_date: "2024-02-29", created_after: "2024-01-01T08:00:00.000Z", tags: ["a"],
        rules: [{ name: "r", level: 30 }], id: "grp/p",
      });
    });

    it("GET with Content-Type: application/json and no body is fine (python-gitlab)", async () => {
      const r = await h.raw("GET", "/api/v4/version", { headers: { "content-type": "application/json" } });
      expect(r.status).toBe(200);
    });

    it("DELETE with a {} JSON body is fine (gitbeaker)", async () => {
      const r = await h.request("DELETE", "/api/v4/projects/1", { json: {} });
      expect(r.status).toBe(204);
    });
  });
};
