/**
 * HTTP serving overhead: an authenticated `GET /api/v4/projects/:id` through adapter-express,
 * adapter-koa and core's node handler, against the same JSON bytes served statically by express,
 * koa and bare `node:http`, all measured in one run (DESIGN §8). Goals: adapter-express ≥ 0.8 of
 * express-static, adapter-koa ≥ 0.5 of koa-static. Issue 12 rows, on SQLite: adapter-express ≥ 0.8 of
 * express-static and core's node handler ≥ 0.4 of bare `node:http`.
 *
 * `benchHttpServing({ target })` takes any instance; by default it is `createTestForgekit()` with
 * alice's personal token reading `grp/public-project`.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { createRequire } from "node:module";
import { forgekit as expressForgekit } from "../packages/adapter-express/src/index.js";
import { forgekit as koaForgekit } from "../packages/adapter-koa/src/index.js";
import type { HttpInstance } from "../packages/core/src/http/instance.js";
import { createNodeHandler } from "../packages/core/src/node/index.js";
import { createTestForgekit } from "../packages/core/src/testing/fixtures.js";
import { createConventionInstance } from "../packages/core/src/testing/http-suite/conventions-fixture.js";
import { kyselyStore, sqlite } from "../packages/store-kysely/src/index.js";
import { load, type LoadResult } from "./_http-load.js";

/** The request every server answers: an instance, the path it serves and the credentials to send. */
export interface BenchTarget {
  instance: HttpInstance;
  path: string;
  headers: Record<string, string>;
}

/** Options of {@link benchHttpServing}. */
export interface HttpServingOptions {
  /** Builds the instance and request under test (default: the seeded test instance). */
  target?: () => Promise<BenchTarget>;
  /** Concurrent keep-alive connections (default 32). */
  connections?: number;
  /** Per measurement: warm-up and counted window (default 300 ms and 1000 ms). */
  warmupMs?: number;
  durationMs?: number;
  /** Interleaved rounds; the best of each server counts (default 3). */
  rounds?: number;
  /** Progress lines (default: console.log). */
  print?: (line: string) => void;
}

/**
 * The HTTP layer alone: core's pipeline over the convention fixture's route table with its fake
 * authenticate (an authenticated `GET /api/v4/projects/1`, no store). Separates adapter + pipeline
 * cost from the services'.
 */
export async function pipelineTarget(): Promise<BenchTarget> {
  return { instance: createConventionInstance(), path: "/api/v4/projects/1", headers: { "private-token": "fixture-valid" } };
}

/** The same seeded instance on the embedded default store, SQLite (an in-memory database). */
export async function sqliteTarget(): Promise<BenchTarget> {
  const store = kyselyStore(sqlite(":memory:"));
  const t = await createTestForgekit({ store });
  return { instance: t.fk, path: `/api/v4/projects/${t.projects.publicProject.id}`, headers: { "private-token": t.tokens.alice } };
}

/** The seeded test instance: alice's token reading the public project (an authenticated read). */
export async function defaultTarget(): Promise<BenchTarget> {
  const t = await createTestForgekit();
  return { instance: t.fk, path: `/api/v4/projects/${t.projects.publicProject.id}`, headers: { "private-token": t.tokens.alice } };
}

/** One issue-12 row: `<row>: <value> (goal ≥ <goal>) met|MISSED`. */
export function goalRow(row: string, value: number, goal: number): string {
  return `${row}: ${value.toFixed(2)}× (goal ≥ ${goal}×) ${value >= goal ? "met" : "MISSED"}`;
}

type ExpressApp = RequestListener & {
  use(...handlers: unknown[]): void;
  get(path: string, handler: (req: unknown, res: { setHeader(n: string, v: string): void; end(b: Uint8Array): void }) => void): void;
};
type KoaCtx = { path: string; body: unknown; type: string };
type KoaApp = { use(mw: ((ctx: KoaCtx) => void) | ReturnType<typeof koaForgekit>): void; callback(): RequestListener };

// express and koa are the adapters' dev dependencies; load them from there.
const requireFrom = (pkg: string) => createRequire(new URL(`../packages/${pkg}/package.json`, import.meta.url));
const express = requireFrom("adapter-express")("express") as () => ExpressApp;
const Koa = requireFrom("adapter-koa")("koa") as new () => KoaApp;

function listen(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address !== null ? address.port : 0 });
    });
  });
}

/**
 * The benchmark: the six servers for the real instance (`options.target`, default
 * {@link defaultTarget} on the in-memory reference store), again on SQLite ({@link sqliteTarget},
 * keys suffixed `[SQLite]`), then for {@link pipelineTarget} (keys suffixed `[http layer]`).
 */
export async function benchHttpServing(options: HttpServingOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  print("authenticated GET /api/v4/projects/:id, full instance:");
  const full = await measureServing(await (options.target ?? defaultTarget)(), options);
  print("same request, full instance on SQLite:");
  const onSqlite = await measureServing(await sqliteTarget(), options);
  print("same request, HTTP layer only (fake route and authenticate):");
  const layer = await measureServing(await pipelineTarget(), options);
  print("issue 12 rows (authenticated GET /projects/:id):");
  const express = onSqlite["adapter-express / express-static (goal ≥ 0.8)"] ?? 0;
  const node = onSqlite["node-handler / node-static (goal ≥ 0.4 on SQLite)"] ?? 0;
  print(`  ${goalRow("authenticated GET /projects/:id, SQLite: adapter-express / express-static", express, 0.8)}`);
  print(`  ${goalRow("authenticated GET /projects/:id, SQLite: node handler / bare node:http", node, 0.4)}`);
  const suffixed = (figures: Record<string, number>, suffix: string) => Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${k} [${suffix}]`, v]));
  return { ...full, ...suffixed(onSqlite, "SQLite"), ...suffixed(layer, "http layer") };
}

/** Runs the six servers one after another for `target`; requests/s per server and the three ratios. */
export async function measureServing(target: BenchTarget, options: HttpServingOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const probe = await target.instance.handle({ method: "GET", path: target.path, rawQuery: "", headers: { ...target.headers } });
  if (probe.status !== 200 || probe.body === undefined) throw new Error(`bench target answered ${probe.status}`);
  const bytes = typeof probe.body === "string" ? Buffer.from(probe.body) : Buffer.from(probe.body);

  const expressStatic = express();
  expressStatic.get(target.path, (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(bytes);
  });
  const expressAdapter = express();
  expressAdapter.use(expressForgekit(target.instance));
  const koaStatic = new Koa();
  koaStatic.use((ctx: KoaCtx) => {
    ctx.type = "application/json";
    ctx.body = bytes;
  });
  const koaAdapter = new Koa();
  koaAdapter.use(koaForgekit(target.instance));

  const servers: [string, RequestListener][] = [
    ["express-static", expressStatic],
    ["adapter-express", expressAdapter],
    ["koa-static", koaStatic.callback()],
    ["adapter-koa", koaAdapter.callback()],
    ["node-static", (_req, res) => res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length }).end(bytes)],
    ["node-handler", createNodeHandler(target.instance)],
  ];
  // Servers run side by side and are measured in interleaved rounds; the best round of each
  // counts, so a burst of other work on the machine does not decide a ratio.
  const running = await Promise.all(servers.map(async ([name, listener]) => ({ name, ...(await listen(listener)) })));
  const rates: Record<string, number> = {};
  try {
    for (let round = 0; round < (options.rounds ?? 3); round++) {
      for (const { name, port } of running) {
        const r: LoadResult = await load({
          port, path: target.path, headers: target.headers,
          connections: options.connections ?? 32, warmupMs: options.warmupMs ?? 300, durationMs: options.durationMs ?? 1000,
        });
        if (r.badStatus > 0 || r.socketErrors > 0) throw new Error(`${name}: ${r.badStatus} non-200 responses, ${r.socketErrors} socket errors`);
        rates[`${name} req/s`] = Math.max(rates[`${name} req/s`] ?? 0, Math.round(r.requestsPerSecond));
      }
    }
  } finally {
    for (const { server } of running) {
      server.closeAllConnections();
      server.close();
    }
  }
  for (const { name } of running) print(`  ${name.padEnd(16)} ${String(rates[`${name} req/s`]).padStart(7)} req/s`);
  const ratio = (a: string, b: string) => (rates[`${a} req/s`] ?? 0) / (rates[`${b} req/s`] ?? 1);
  const ratios = {
    "adapter-express / express-static (goal ≥ 0.8)": ratio("adapter-express", "express-static"),
    "adapter-koa / koa-static (goal ≥ 0.5)": ratio("adapter-koa", "koa-static"),
    "node-handler / node-static (goal ≥ 0.4 on SQLite)": ratio("node-handler", "node-static"),
  };
  for (const [name, value] of Object.entries(ratios)) print(`  ${name}: ${value.toFixed(2)}`);
  return { ...rates, ...ratios };
}
