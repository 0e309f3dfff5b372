/**
 * The HTTP harness's connections: its keep-alive client must not send a request on a socket the
 * server is closing. Tests block the event loop for seconds (git work through execFileSync); when
 * the loop comes back, the server's idle timer and the client's next request fire in the same turn,
 * and a POST written on the closing socket failed with ECONNRESET (undici retries no POST).
 */
import { createServer } from "node:http";
import { beforeEach, describe, expect, it } from "vitest";
import { collectSuite, createHarness, listenOn, type HttpSuite } from "./http-harness.js";

/** Blocks this thread for `ms` (what seconds of synchronous git work do to the event loop). */
const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("HttpHarness.request - connections", () => {
  it("sends every request on a connection of its own (Connection: close), so none is written on a socket the server may be closing", { timeout: 60_000 }, async () => {
    const sockets = new Set<unknown>();
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method })));
    });
    const h = createHarness("node", () => listenOn(server));
    await h.serve({} as never);
    try {
      expect((await h.request("GET", "/")).json).toEqual({ method: "GET" });
      // Seconds of synchronous git work: past node's keep-alive idle timeout (5 s).
      blockFor(5_500);
      expect((await h.request("POST", "/", { json: { after: "block" } })).json).toEqual({ method: "POST" });
      expect((await h.request("POST", "/", { json: { again: true } })).json).toEqual({ method: "POST" });
      expect(sockets.size).toBe(3);
    } finally {
      await h.closeAll();
    }
  });
});

describe("describeHttpSuite - a suite's hooks stay inside its describe blocks", () => {
  const harness = createHarness("node", () => Promise.reject(new Error("not served")));
  const leaky: HttpSuite = () => {
    beforeEach(() => undefined);
  };
  const scoped: HttpSuite = () => {
    describe("scoped", () => {
      beforeEach(() => undefined);
      it("runs", () => undefined);
    });
  };
  let leakyError: unknown;
  let scopedError: unknown;
  try {
    collectSuite(leaky, harness);
  } catch (error) {
    leakyError = error;
  }
  try {
    collectSuite(scoped, harness);
  } catch (error) {
    scopedError = error;
  }

  it("refuses a suite that calls beforeEach at its top level (it would run before every test of the file), naming the suite and the hook", () => {
    expect(String(leakyError)).toMatch(/HTTP suite leaky calls beforeEach outside its describe blocks/);
  });

  it("accepts a suite whose hooks are inside its own describe", () => {
    expect(scopedError).toBeUndefined();
  });
});
