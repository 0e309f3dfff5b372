/**
 * One HTTP suite, every host (DESIGN §8): suites are functions of a harness; each adapter's test
 * file runs them on a real server at 127.0.0.1:0 through its own {@link ServeFn}.
 *
 * ```ts
 * // packages/adapter-express/src/http.test.ts
 * describeHttpSuite("express", serveExpress, [...conventionSuites, accountsSuite]);
 *
 * // a suite (e.g. testing/http-suite/accounts-users.ts)
 * export const usersSuite: HttpSuite = (h) => {
 *   describe("users", () => {
 *     beforeAll(async () => { await h.serve((await createTestForgekit()).fk); });
 *     it("GET /user without credentials → 401", async () => {
 *       const r = await h.request("GET", "/api/v4/user");
 *       expect(r.status).toBe(401);
 *     });
 *   });
 * };
 * ```
 * Each suite gets its own harness; `h.serve(instance)` starts the server for that suite and closes
 * the one it replaces (so a finished block's instance can be freed); the last is closed after the
 * adapter's block.
 */
import { request as nodeRequest } from "node:http";
import { afterAll, describe, TestRunner } from "vitest";
import type { HttpInstance } from "../http/instance.js";
import { responseValidator, type ResponseValidator } from "./response-validation.js";

/** A server running an instance; `url` is its base (with the mount prefix, no trailing slash). */
export interface ServedInstance {
  url: string;
  close(): Promise<void>;
}

/** Starts `instance` behind one host (express, koa, node:http, fetch) on 127.0.0.1:0. */
export interface ServeFn {
  (instance: HttpInstance): Promise<ServedInstance>;
}

/** Options of {@link HttpHarness.request}. */
export interface RequestOptions {
  /** Appended as a query string (a string is used verbatim, without the `?`). */
  query?: Record<string, string | readonly string[] | undefined> | string;
  /** Request headers; `undefined` values are left out. */
  headers?: Record<string, string | undefined>;
  /** Raw body (give the content type in `headers`). */
  body?: string | Uint8Array;
  /** JSON body: serialised, with `Content-Type: application/json`. */
  json?: unknown;
}

/** A response as tests see it: lower-case header names, the text, and the parsed JSON when it parses. */
export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/** What a suite drives. */
export interface HttpHarness {
  /** The adapter under test, e.g. `"express"` or `"koa /forge"`. */
  readonly adapter: string;
  /** Starts this suite's server for `instance`, closing the one it replaces; resolves its base URL. Call it in `beforeAll`. */
  serve(instance: HttpInstance): Promise<string>;
  /** The current server's base URL (throws before `serve`). */
  url(): string;
  /** Sends a request with `fetch` to `url() + path`. */
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResult>;
  /**
   * Sends a request with `node:http`, the request target verbatim (no URL normalisation) and a body
   * on any method (fetch refuses bodies on GET/HEAD).
   */
  raw(method: string, target: string, options?: { headers?: Record<string, string>; body?: string | Uint8Array }): Promise<HttpResult>;
}

/** A suite: registers `describe` / `it` blocks against the harness. */
export type HttpSuite = (h: HttpHarness) => void;

/**
 * Registers `suites` under `describe(adapterName)`, each with its own harness over `serve`. The
 * tests of every suite run shuffled (Vitest's `sequence.seed`, fixed in vitest.config.ts, so a run
 * is repeatable): a test that leans on what an earlier one left fails here, not only when someone
 * reorders the file (issue #23).
 */
export function describeHttpSuite(adapterName: string, serve: ServeFn, suites: readonly HttpSuite[]): void {
  describe.shuffle(adapterName, () => {
    for (const suite of suites) {
      const h = createHarness(adapterName, serve);
      afterAll(() => h.closeAll());
      collectSuite(suite, h);
    }
  });
}

const HOOKS = ["beforeAll", "beforeEach", "afterEach", "afterAll"] as const;

/** How many hooks of each kind (in {@link HOOKS}' order) the describe block being collected holds now. */
function hookCounts(): number[] {
  const current = TestRunner.getCurrentSuite().suite;
  return HOOKS.map((name) => (current === undefined ? 0 : TestRunner.getSuiteHooks(current)[name].length));
}

/**
 * A suite's hooks belong inside its own `describe`: called at the suite's top level, they land in
 * the adapter's block and run for every suite of the file. One `beforeEach` there built a fresh
 * instance (a fresh database on PostgreSQL and MySQL) before each of a file's 340 tests: 0.2 s a
 * test on MySQL, 0.13 s on SQLite (issue #23). So a suite is registered through this: collecting
 * one that leaves a hook in the enclosing block throws, naming it.
 */
export function collectSuite(suite: HttpSuite, h: HttpHarness): void {
  const before = hookCounts();
  suite(h);
  const after = hookCounts();
  const leaked = HOOKS.filter((_, i) => after[i] !== before[i]);
  if (leaked.length > 0) {
    throw new Error(`HTTP suite ${suite.name || "(anonymous)"} calls ${leaked.join(", ")} outside its describe blocks: wrap its body in a describe, or the hook runs for every suite of the file`);
  }
}

function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toResult(status: number, headers: Record<string, string>, text: string): HttpResult {
  return { status, headers, text, json: parseJson(text) };
}

/** Builds a harness; exported for suites that need one outside {@link describeHttpSuite}. */
export function createHarness(adapter: string, serveFn: ServeFn): HttpHarness & { closeAll(): Promise<void> } {
  let current: ServedInstance | undefined;
  // Checks 2xx answers against the OpenAPI document unless FORGEKIT_TEST_VALIDATE_RESPONSES=0 (response-validation.ts).
  let validate: ResponseValidator | undefined;
  const servers: ServedInstance[] = [];
  const url = () => {
    if (current === undefined) throw new Error("http harness: call h.serve(instance) in beforeAll first");
    return current.url;
  };
  return {
    adapter,
    async serve(instance) {
      // The server this one replaces is closed: requests only ever reach the current one, and a
      // closed server lets its instance go. Kept to the end of the adapter's block, the instances of
      // a whole run stayed in memory (3.7 GB for the in-memory suite), and every git process the
      // run spawned paid for that memory (fork copies the page tables: 2.6 ms a spawn at 50 MB,
      // 22 ms at 1.7 GB) — half of the suite's time (issue 23).
      const replaced = servers.splice(0);
      validate = responseValidator(instance);
      current = await serveFn(instance);
      servers.push(current);
      await Promise.all(replaced.map((s) => s.close()));
      return current.url;
    },
    url,
    async request(method, path, options = {}) {
      let query = "";
      if (typeof options.query === "string") query = options.query;
      else if (options.query !== undefined) {
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(options.query)) {
          if (v !== undefined) for (const item of typeof v === "string" ? [v] : v) search.append(k, item);
        }
        query = search.toString();
      }
      // A connection per request: tests block the event loop for seconds (synchronous git work), and
      // a keep-alive socket reused then may be the one the server's idle timer is closing in the same
      // turn — a POST written on it fails with ECONNRESET (fetch retries no POST). A longer server
      // keep-alive only moves that edge; no reuse removes it.
      const headers: Record<string, string> = { connection: "close" };
      for (const [k, v] of Object.entries(options.headers ?? {})) if (v !== undefined) headers[k] = v;
      let body: string | Uint8Array | undefined = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers["content-type"] ??= "application/json";
      }
      const res = await fetch(`${url()}${path}${query === "" ? "" : `?${query}`}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: "manual",
      });
      const out: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        out[name] = value;
      });
      const result = toResult(res.status, out, await res.text());
      validate?.({ method, target: `${path}${query === "" ? "" : `?${query}`}`, ...result });
      return result;
    },
    raw(method, target, options = {}) {
      const base = new URL(url());
      return new Promise((resolve, reject) => {
        const req = nodeRequest(
          {
            host: base.hostname,
            port: base.port,
            method,
            path: `${base.pathname.replace(/\/$/, "")}${target}`,
            // Node sends GET/DELETE bodies only with an explicit length.
            headers: { ...(options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(options.body)) }), ...options.headers },
            agent: false,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => {
              const headers: Record<string, string> = {};
              for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
              const result = toResult(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString("utf8"));
              try {
                validate?.({ method, target, ...result });
              } catch (error) {
                reject(error instanceof Error ? error : new Error(String(error)));
                return;
              }
              resolve(result);
            });
            res.on("error", reject);
          },
        );
        req.on("error", reject);
        req.end(options.body);
      });
    },
    async closeAll() {
      await Promise.all(servers.splice(0).map((s) => s.close()));
      current = undefined;
    },
  };
}

/**
 * Starts `server` on 127.0.0.1:0 and resolves a {@link ServedInstance} whose url ends with
 * `mountPath` (e.g. `/forge` when the adapter is mounted below a sub-path). Open keep-alive
 * connections are closed with the server.
 */
export function listenOn(server: import("node:http").Server, mountPath = ""): Promise<ServedInstance> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        reject(new Error("http harness: no TCP address"));
        return;
      }
      resolve({
        url: `http://127.0.0.1:${address.port}${mountPath}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
