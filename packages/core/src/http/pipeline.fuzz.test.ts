/**
 * Property: whatever arrives — random paths, queries, headers and bodies — the pipeline answers
 * with a status below 500 and never throws (in-process, ≥ 10,000 requests).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createConventionInstance } from "../testing/http-suite/conventions-fixture.js";
import type { HttpRequest } from "./types.js";

const segment = fc.oneof(
  fc.constantFrom("projects", "echo", "groups", "events", "version", "version.json", "user", "files", "raw", "fixture", "errors", "collector", "api", "envelope", "1", "45", "0", "-1", "grp%2Fproject-3", "%zz", "%2F", "..", "", "5.json", "__proto__", "constructor"),
  fc.string({ maxLength: 12 }),
);
const path = fc.oneof(
  { arbitrary: fc.constantFrom("/api/v4/projects", "/api/v4/echo", "/api/v4/projects/1", "/api/v4/groups", "/api/v4/events", "/api/v4/collector/api/1/envelope"), weight: 3 },
  fc.array(segment, { maxLength: 6 }).map((s) => `/api/v4/${s.join("/")}`),
  fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join("/")}`),
  fc.string({ maxLength: 40 }),
);
const key = fc.oneof(
  fc.constantFrom("page", "per_page", "pagination", "order_by", "sort", "id_after", "id_before", "cursor", "name", "active", "count", "tags[]", "rules[0][level]", "a[][k]", "a[b][c]", "__proto__", "x[__proto__]", "private_token"),
  fc.string({ maxLength: 10 }),
);
const value = fc.oneof(
  fc.constantFrom("keyset", "offset", "id", "name", "asc", "desc", "0", "-5", "101", "1e3", "true", "null", "%zz", "%2B", "+", ""),
  fc.string({ maxLength: 16 }),
);
const query = fc.oneof(
  fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")),
  fc.string({ maxLength: 60 }),
  fc.string({ minLength: 450, maxLength: 700 }),
);
const json: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  fc.constant(undefined),
  json.map((v) => ["application/json", JSON.stringify(v)] as const),
  fc.dictionary(key, fc.oneof(value, json)).map((v) => ["application/json", JSON.stringify(v)] as const),
  fc.array(fc.tuple(key, value), { maxLength: 5 }).map((p) => ["application/x-www-form-urlencoded", p.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")] as const),
  fc.tuple(fc.constantFrom("application/json", "multipart/form-data; boundary=XyZ", "text/plain", "", "application/x-www-form-urlencoded", "application/vnd.x+json"), fc.string({ maxLength: 80 })),
  fc.string({ minLength: 4000, maxLength: 4200 }).map((s) => ["application/json", s] as const),
  fc.string({ maxLength: 80 }).map((s) => ["multipart/form-data; boundary=XyZ", `--XyZ\r\nContent-Disposition: form-data; name="${s}"\r\n\r\n${s}\r\n--XyZ--`] as const),
);
const headers = fc.record(
  {
    "private-token": fc.constantFrom("fixture-valid", "fixture-expired", "fixture-read-api", "nope", ""),
    "if-unmodified-since": fc.oneof(fc.string({ maxLength: 30 }), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())),
    "content-encoding": fc.constantFrom("gzip", "identity", ""),
    sudo: fc.string({ maxLength: 8 }),
  },
  { requiredKeys: [] },
);
const method = fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "get", "PROPFIND");

const encoder = new TextEncoder();

describe("pipeline under random input", () => {
  it("never answers 5xx and never throws (10,000 random requests)", async () => {
    const instance = createConventionInstance({ maxUriLength: 512, maxBodyBytes: 4096 }, { failureRoutes: false });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
        const req: HttpRequest = { method: m, path: p, rawQuery: q, headers: { ...h } };
        if (b !== undefined) {
          req.headers["content-type"] = b[0];
          req.body = encoder.encode(b[1]);
        }
        const r = await instance.handle(req);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(500);
        if (r.body !== undefined) expect(r.headers["content-type"]).toBe("application/json");
        else expect(r.headers["content-type"] === undefined || m.toUpperCase() === "HEAD").toBe(true);
      }),
      { numRuns: 10_000 },
    );
    // The inputs reach every stage: served, refused by validation, routing, method, media type and limits.
    for (const status of [200, 204, 400, 404, 405, 413, 414, 415]) expect([status, statuses.get(status) ?? 0]).not.toEqual([status, 0]);
  }, 240_000);
});
