import { describe, expect, it } from "vitest";
import type { HttpRequest, HttpResponse } from "./types.js";
import { toFetchHandler } from "./fetch.js";

const echo = async (req: HttpRequest): Promise<HttpResponse> => ({
  status: 200, headers: { "content-type": "application/json", "x-test": "1" }, body: JSON.stringify({ path: req.path, query: req.rawQuery, bytes: req.body?.length ?? 0, headers: req.headers }),
});

const stream = (chunks: number[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const n of chunks) controller.enqueue(new Uint8Array(n));
      controller.close();
    },
  });

describe("toFetchHandler", () => {
  it("maps Request → HttpRequest (encoded path, raw query, lower-case headers, body) and back", async () => {
    const handler = toFetchHandler({ handle: echo });
    const res = await handler(new Request("http://h/api/v4/a%2Fb?x=1+2", { method: "POST", body: "abc", headers: { "X-Thing": "v" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-test")).toBe("1");
    expect(await res.json()).toMatchObject({ path: "/api/v4/a%2Fb", query: "x=1+2", bytes: 3, headers: { "x-thing": "v" } });
  });

  it("a streamed body over the limit → 413 without buffering it whole", async () => {
    const handler = toFetchHandler(echo, { maxBodyBytes: 100 });
    const res = await handler(new Request("http://h/api/v4/x", { method: "POST", body: stream([60, 60]), duplex: "half" }));
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('{"message":"413 Request Entity Too Large"}');
  });

  it("prefix: stripped; outside it → 404 route_not_found", async () => {
    const handler = toFetchHandler(echo, { prefix: "/forge/" });
    expect(await (await handler(new Request("http://h/forge/api/v4/x"))).json()).toMatchObject({ path: "/api/v4/x" });
    const outside = await handler(new Request("http://h/api/v4/x"));
    expect([outside.status, await outside.text()]).toEqual([404, '{"error":"404 Not Found"}']);
  });

  it("a throwing handler → generic 500; HEAD and 204 responses have no body", async () => {
    const boom = toFetchHandler(() => Promise.reject(new Error("x")));
    const r = await boom(new Request("http://h/api/v4/x"));
    expect([r.status, await r.text()]).toEqual([500, '{"message":"500 Internal Server Error"}']);
    const head = await toFetchHandler(echo)(new Request("http://h/api/v4/x", { method: "HEAD" }));
    expect(head.body).toBeNull();
    const empty = await toFetchHandler(async () => ({ status: 204, headers: {}, body: "x" }))(new Request("http://h/api/v4/x"));
    expect(empty.body).toBeNull();
  });

  it("the peer address comes from the host's callback", async () => {
    let seen: string | undefined;
    const handler = toFetchHandler(async (req) => {
      seen = req.remoteAddress;
      return { status: 204, headers: {} };
    }, { remoteAddress: () => "10.0.0.1" });
    await handler(new Request("http://h/api/v4/x"));
    expect(seen).toBe("10.0.0.1");
  });
});
