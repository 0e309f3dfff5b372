import { errAsync, okAsync } from "neverthrow";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { anonymous } from "../auth/identity.js";
import { errors } from "../errors.js";
import { p, parseParams } from "./params.js";
import { createApiHandler, type Authenticate } from "./pipeline.js";
import { createRouter, type AnyRoute } from "./router.js";
import type { HttpRequest, Params, Route } from "./types.js";

const request = (method: string, path: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  method, path, rawQuery: "", headers: {}, ...extra,
});
const okAuth: Authenticate = () => okAsync(anonymous);
const route = (r: Partial<AnyRoute> & Pick<AnyRoute, "method" | "path">): AnyRoute => ({
  auth: { mode: "optional" }, handler: (ctx) => okAsync({ body: { params: ctx.params, path: ctx.pathParams } }), ...r,
});
const json = (body: unknown) => JSON.parse(String(body)) as unknown;

describe("createApiHandler", () => {
  it("paths outside /api/v4 (e.g. /api/v3/x) → 404 route_not_found", async () => {
    const handle = createApiHandler({ routes: [route({ method: "GET", path: "/x" })], authenticate: okAuth });
    for (const path of ["/api/v3/x", "/x", "/api/v4x", "/api/v4//x"]) {
      const r = await handle(request("GET", path));
      expect([path, r.status, json(r.body)]).toEqual([path, 404, { error: "404 Not Found" }]);
    }
  });

  it("authenticate receives the request, the merged raw params and the route; its error is rendered", async () => {
    const seen: [HttpRequest, Params, Route][] = [];
    const authenticate: Authenticate = (req, params, r) => {
      seen.push([req, params, r]);
      return errAsync(errors.forbidden("blocked"));
    };
    const r1 = route({ method: "POST", path: "/things/:id" });
    const handle = createApiHandler({ routes: [r1], authenticate });
    const r = await handle(request("POST", "/api/v4/things/5", { rawQuery: "a=1&id=9", headers: { "content-type": "application/json" }, body: new TextEncoder().encode('{"b":2}') }));
    expect(r.status).toBe(403);
    expect(json(r.body)).toEqual({ message: "403 Forbidden - blocked" });
    expect(seen[0]?.[1]).toEqual({ a: "1", id: "5", b: 2 });
    expect(seen[0]?.[2]).toBe(r1);
  });

  it("the handler gets validated params, path params and the identity", async () => {
    const identity = { user: null, credential: { kind: "session" as const, scopes: null } };
    const r1: Route<{ id: number }> = {
      method: "GET", path: "/things/:id", auth: { mode: "optional" },
      params: parseParams(z.object({ id: p.int() })),
      handler: (ctx) => okAsync({ body: { id: ctx.params.id, kind: ctx.identity.credential?.kind } }),
    };
    const handle = createApiHandler({ routes: [r1 as AnyRoute], authenticate: () => okAsync(identity) });
    expect(json((await handle(request("GET", "/api/v4/things/7"))).body)).toEqual({ id: 7, kind: "session" });
    expect(json((await handle(request("GET", "/api/v4/things/x"))).body)).toEqual({ error: "id is invalid" });
  });

  it("any throw (authenticate, handler, rejected promise) → generic 500, logged", async () => {
    const logs: unknown[] = [];
    const throwing: Authenticate = () => {
      throw new Error("auth exploded");
    };
    const routes = [
      route({ method: "GET", path: "/a" }),
      route({ method: "GET", path: "/b", handler: () => { throw new Error("handler exploded"); } }),
      route({ method: "GET", path: "/c", handler: () => okAsync(0).andThen(() => Promise.reject(new Error("rejected")) as never) }),
    ];
    const logger = { log: (...args: unknown[]) => logs.push(args) };
    const a = createApiHandler({ routes, authenticate: throwing, logger });
    const b = createApiHandler({ routes, authenticate: okAuth, logger });
    for (const r of [await a(request("GET", "/api/v4/a")), await b(request("GET", "/api/v4/b")), await b(request("GET", "/api/v4/c"))]) {
      expect(r).toMatchObject({ status: 500, body: '{"message":"500 Internal Server Error"}' });
    }
    expect(JSON.stringify(logs)).toContain("auth exploded");
    expect(JSON.stringify(logs)).toContain("handler exploded");
  });

  it("parsedBody: an object is params; a string keeps its content type rules (text/plain → 415)", async () => {
    const handle = createApiHandler({ routes: [route({ method: "POST", path: "/e", handler: (ctx) => okAsync({ status: 200, body: ctx.params }) })], authenticate: okAuth });
    const parsed = await handle(request("POST", "/api/v4/e", { parsedBody: { a: [1, { b: true }], d: new Date(0), f: () => 1 } }));
    expect(json(parsed.body)).toEqual({ a: [1, { b: true }], d: "1970-01-01T00:00:00.000Z" });
    const text = await handle(request("POST", "/api/v4/e", { parsedBody: "hello", headers: { "content-type": "text/plain" } }));
    expect(text.status).toBe(415);
    const bytes = await handle(request("POST", "/api/v4/e", { parsedBody: new TextEncoder().encode("x=1"), headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(json(bytes.body)).toEqual({ x: "1" });
  });

  it("a JSON body that is not an object carries no params; __proto__ keys are dropped", async () => {
    const handle = createApiHandler({ routes: [route({ method: "POST", path: "/e", handler: (ctx) => okAsync({ status: 200, body: ctx.params }) })], authenticate: okAuth });
    const enc = (s: string) => new TextEncoder().encode(s);
    const h = { "content-type": "application/json" };
    expect(json((await handle(request("POST", "/api/v4/e", { headers: h, body: enc("[1,2]") }))).body)).toEqual({});
    const proto = await handle(request("POST", "/api/v4/e", { headers: h, body: enc('{"__proto__":{"x":1},"a":{"__proto__":{"y":2}}}') }));
    expect(json(proto.body)).toEqual({ a: {} });
  });

  it("a handler's own status and headers are kept; 204 drops a body", async () => {
    const handle = createApiHandler({
      routes: [
        route({ method: "POST", path: "/t", handler: () => okAsync({ status: 200, body: {}, headers: { "X-Custom": "1" } }) }),
        route({ method: "PUT", path: "/t", handler: () => okAsync({ status: 204, body: { ignored: true } }) }),
      ],
      authenticate: okAuth,
    });
    const post = await handle(request("POST", "/api/v4/t"));
    expect(post).toMatchObject({ status: 200, body: "{}", headers: { "x-custom": "1", "content-type": "application/json" } });
    const put = await handle(request("PUT", "/api/v4/t"));
    expect(put.body).toBeUndefined();
    expect(put.headers["content-type"]).toBeUndefined();
  });
});

describe("createRouter", () => {
  it("rejects duplicate routes and conflicting placeholder names", () => {
    expect(() => createRouter([route({ method: "GET", path: "/a" }), route({ method: "GET", path: "/a" })])).toThrow("duplicate route");
    expect(() => createRouter([route({ method: "GET", path: "/a/:id" }), route({ method: "PUT", path: "/a/:key" })])).toThrow("conflicts");
  });

  it("literal segments win over placeholders; a placeholder route still matches other values", () => {
    const router = createRouter([route({ method: "GET", path: "/p/:id" }), route({ method: "GET", path: "/p/starred" })]);
    const starred = router.match("GET", "/api/v4/p/starred");
    const other = router.match("GET", "/api/v4/p/5");
    expect(starred.kind === "matched" && starred.route.path).toBe("/p/starred");
    expect(other.kind === "matched" && other.pathParams).toEqual({ id: "5" });
  });
});
