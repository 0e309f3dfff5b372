/**
 * Convention suite: content types and limits (spec "Limits", "Errors" 414; reference §3.2;
 * client-compatibility §6.14, §6.21).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createConventionInstance } from "./conventions-fixture.js";

/**
 * HTTP suite: request content types — JSON, form and multipart bodies are read, other bodies answer 415,
 * malformed JSON 400.
 */
export const contentTypeSuite: HttpSuite = (h) => {
  describe("conventions: content type", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance());
    });

    it("text/plain body → 415 {\"message\":\"415 Unsupported Media Type\"} (not accepted by default)", async () => {
      const r = await h.request("POST", "/api/v4/echo", { body: "a=1", headers: { "content-type": "text/plain" } });
      expect(r.status).toBe(415);
      expect(r.text).toBe('{"message":"415 Unsupported Media Type"}');
    });

    it("a body without a content type → 415", async () => {
      const r = await h.raw("POST", "/api/v4/echo", { body: "a=1" });
      expect(r.status).toBe(415);
    });

    it("an unsupported content type with an empty body is fine", async () => {
      const r = await h.raw("POST", "/api/v4/echo", { headers: { "content-type": "application/octet-stream", "content-length": "0" } });
      expect(r.status).toBe(200);
    });

    it("a Content-Encoding on a decoded body → 415", async () => {
      const r = await h.raw("POST", "/api/v4/echo", { headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: "{}" });
      expect(r.status).toBe(415);
    });

    it("malformed JSON → 400 {\"message\":\"400 Bad request - malformed JSON\"}", async () => {
      const r = await h.request("POST", "/api/v4/echo", { body: '{"a":', headers: { "content-type": "application/json" } });
      expect(r.status).toBe(400);
      expect(r.text).toBe('{"message":"400 Bad request - malformed JSON"}');
    });

    it("JSON with a charset parameter and vendor +json types are JSON", async () => {
      const a = await h.request("POST", "/api/v4/echo", { body: '{"a":1}', headers: { "content-type": "application/json; charset=utf-8" } });
      expect(a.json).toEqual({ params: { a: 1 }, path: {} });
      const b = await h.request("POST", "/api/v4/echo", { body: '{"a":2}', headers: { "content-type": "application/vnd.api+json" } });
      expect(b.json).toEqual({ params: { a: 2 }, path: {} });
    });

    it("raw-body routes take any content type, or none, and see the bytes", async () => {
      const typed = await h.request("POST", "/api/v4/collector/api/1/envelope", { body: "line1\nline2", headers: { "content-type": "text/plain" } });
      expect(typed.json).toEqual({ type: "text/plain", bytes: 11 });
      const untyped = await h.raw("POST", "/api/v4/collector/api/1/envelope/", { body: "{}" });
      expect(untyped.status).toBe(200);
      expect(untyped.json).toEqual({ type: null, bytes: 2 });
    });
  });
};

/**
 * HTTP suite: a query string over the limit answers 414 and a body over the limit 413, with the spec's
 * bodies.
 */
export const limitsSuite: HttpSuite = (h) => {
  describe("conventions: limits", () => {
    beforeAll(async () => {
      await h.serve(createConventionInstance({ maxUriLength: 1024, maxBodyBytes: 2048 }));
    });

    it("a query string over the limit → 414 {\"message\":\"414 Request-URI Too Large\"}", async () => {
      const r = await h.request("GET", "/api/v4/echo", { query: `q=${"x".repeat(1100)}` });
      expect(r.status).toBe(414);
      expect(r.text).toBe('{"message":"414 Request-URI Too Large"}');
    });

    it("a query string within the limit is served", async () => {
      const r = await h.request("GET", "/api/v4/echo", { query: `q=${"x".repeat(900)}` });
      expect(r.status).toBe(200);
    });

    it("a body over the limit → 413 {\"message\":\"413 Request Entity Too Large\"}", async () => {
      const r = await h.request("POST", "/api/v4/echo", { json: { a: "x".repeat(4096) } });
      expect(r.status).toBe(413);
      expect(r.text).toBe('{"message":"413 Request Entity Too Large"}');
    });

    it("a body at the limit is served", async () => {
      const json = { a: "x".repeat(2048 - 8) };
      expect(JSON.stringify(json).length).toBe(2048);
      const r = await h.request("POST", "/api/v4/echo", { json });
      expect(r.status).toBe(200);
    });
  });
};
