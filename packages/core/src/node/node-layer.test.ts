import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listenOn, type ServedInstance } from "../testing/http-harness.js";
import type { HttpRequest, HttpResponse } from "../http/types.js";
import { createNodeHandler, serveNodeRequest, toHttpRequest, writeHttpResponse } from "./index.js";

let served: ServedInstance | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Sends a request with a chunked body (no Content-Length) and resolves status, headers and text. */
function send(url: string, method: string, path: string, chunks: Buffer[], headers: Record<string, string> = {}) {
  const u = new URL(url);
  return new Promise<{ status: number; headers: IncomingMessage["headers"]; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const echoBody = async (req: HttpRequest): Promise<HttpResponse> => ({
  status: 200, headers: { "content-type": "application/json" },
  body: JSON.stringify({ path: req.path, query: req.rawQuery, bytes: req.body?.length ?? 0, parsed: req.parsedBody ?? null, remote: typeof req.remoteAddress }),
});

describe("node layer", () => {
  it("a chunked body over the limit → 413 with Connection: close as soon as the limit passes, without waiting for the rest", async () => {
    served = await listenOn(createServer(createNodeHandler({ handle: echoBody, maxBodyBytes: 1024 })));
    const u = new URL(served.url);
    const r = await new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: u.hostname, port: u.port, method: "POST", path: "/api/v4/x", agent: false }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers["connection"], text }));
      });
      req.on("error", () => undefined);
      setTimeout(() => reject(new Error("no 413 while the body was still open")), 5000).unref();
      // 1100 bytes pass the limit; the request is never ended.
      req.write(Buffer.alloc(1100));
    });
    expect(r).toEqual({ status: 413, connection: "close", text: '{"message":"413 Request Entity Too Large"}' });
  });

  it("a declared Content-Length over the limit → 413 before reading", async () => {
    served = await listenOn(createServer(createNodeHandler({ handle: echoBody, maxBodyBytes: 10 })));
    const r = await send(served.url, "POST", "/api/v4/x", [Buffer.alloc(11)], { "content-length": "11" });
    expect(r.status).toBe(413);
  });

  it("bodies within the limit are read whole; path, query and peer address pass through", async () => {
    served = await listenOn(createServer(createNodeHandler({ handle: echoBody })));
    const r = await send(served.url, "POST", "/api/v4/a%2Fb?x=1+2", [Buffer.from("ab"), Buffer.from("cd")]);
    expect(JSON.parse(r.text)).toEqual({ path: "/api/v4/a%2Fb", query: "x=1+2", bytes: 4, parsed: null, remote: "string" });
  });

  it("createNodeHandler: a path outside the prefix → 404 {\"error\":\"404 Not Found\"}", async () => {
    served = await listenOn(createServer(createNodeHandler({ handle: echoBody }, { prefix: "/forge" })));
    const outside = await send(served.url, "GET", "/elsewhere/api/v4/x", []);
    expect(outside.status).toBe(404);
    expect(outside.text).toBe('{"error":"404 Not Found"}');
    const inside = await send(served.url, "GET", "/forge/api/v4/x", []);
    expect(JSON.parse(inside.text)).toMatchObject({ path: "/api/v4/x" });
  });

  it("a throwing handler → generic 500", async () => {
    served = await listenOn(createServer(createNodeHandler(() => Promise.reject(new Error("x")))));
    const r = await send(served.url, "GET", "/api/v4/x", []);
    expect(r.status).toBe(500);
    expect(r.text).toBe('{"message":"500 Internal Server Error"}');
  });

  it("serveNodeRequest leaves requests outside forgekit's paths (and their bodies) to the host", async () => {
    const server = createServer((req, res) => {
      void serveNodeRequest({ handle: echoBody }, req, res).then((done) => {
        if (done) return;
        let text = "";
        req.on("data", (c: Buffer) => (text += c.toString()));
        req.on("end", () => res.end(`host got ${text}`));
      });
    });
    served = await listenOn(server);
    expect((await send(served.url, "POST", "/api/v3/x", [Buffer.from("body")])).text).toBe("host got body");
    expect((await send(served.url, "POST", "/oauthx", [Buffer.from("b")])).text).toBe("host got b");
    expect((await send(served.url, "GET", "/oauth/token", [])).status).toBe(200);
  });

  it("toHttpRequest: a stream consumed by a body parser yields parsedBody; absolute-form targets are split", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        void toHttpRequest(req, { parsedBody: { a: 1 } }).then((r) => {
          res.end(JSON.stringify(r._unsafeUnwrap()));
        });
      });
    });
    served = await listenOn(server);
    const r = JSON.parse((await send(served.url, "POST", "http://example.test/api/v4/p?q=1#frag", [Buffer.from("x")])).text) as HttpRequest;
    expect(r).toMatchObject({ method: "POST", path: "/api/v4/p", rawQuery: "q=1", parsedBody: { a: 1 } });
    expect(r.body).toBeUndefined();
  });

  it("writeHttpResponse keeps a given Content-Length (HEAD) and ends a response whose headers were sent", async () => {
    const server = createServer((req, res) => {
      if (req.url === "/sent") {
        res.writeHead(299);
        writeHttpResponse(res, { status: 200, headers: {}, body: "ignored" });
        return;
      }
      writeHttpResponse(res, { status: 200, headers: { "content-length": "42" } });
    });
    served = await listenOn(server);
    expect((await send(served.url, "HEAD", "/", [])).headers["content-length"]).toBe("42");
    expect((await send(served.url, "GET", "/sent", [])).status).toBe(299);
  });
});
