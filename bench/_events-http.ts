/**
 * Throughput of one authenticated request with a query string (bench/events.ts): adapter-express
 * and adapter-koa against express and koa serving the response's bytes statically, in interleaved
 * rounds (best of each counts), with bench/_http-load.ts. bench/http-serving.ts routes its static
 * servers by the whole target, which cannot carry a query; here they route by the path alone.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { createRequire } from "node:module";
import { forgekit as expressForgekit } from "../packages/adapter-express/src/index.js";
import { forgekit as koaForgekit } from "../packages/adapter-koa/src/index.js";
import type { HttpInstance } from "../packages/core/src/http/instance.js";
import { splitTarget } from "../packages/core/src/http/instance.js";
import { load } from "./_http-load.js";

type ExpressApp = RequestListener & {
  use(...handlers: unknown[]): void;
  get(path: string, handler: (req: unknown, res: { setHeader(n: string, v: string): void; end(b: Uint8Array): void }) => void): void;
};
type KoaCtx = { body: unknown; type: string };
type KoaApp = { use(mw: ((ctx: KoaCtx) => void) | ReturnType<typeof koaForgekit>): void; callback(): RequestListener };

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

/** Requests per second of each server (best of `rounds`); the caller forms the ratios. */
export async function measureWithQuery(
  instance: HttpInstance,
  target: string,
  headers: Record<string, string>,
  options: { rounds?: number; connections?: number; warmupMs?: number; durationMs?: number; print: (line: string) => void },
): Promise<Record<string, number>> {
  const split = splitTarget(target);
  if (split === null) throw new Error(`bad target ${target}`);
  const probe = await instance.handle({ method: "GET", path: split.path, rawQuery: split.rawQuery, headers: { ...headers } });
  if (probe.status !== 200 || probe.body === undefined) throw new Error(`bench target answered ${probe.status}`);
  const bytes = Buffer.from(probe.body);
  const expressStatic = express();
  expressStatic.get(split.path, (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(bytes);
  });
  const expressAdapter = express();
  expressAdapter.use(expressForgekit(instance));
  const koaStatic = new Koa();
  koaStatic.use((ctx: KoaCtx) => {
    ctx.type = "application/json";
    ctx.body = bytes;
  });
  const koaAdapter = new Koa();
  koaAdapter.use(koaForgekit(instance));
  const servers: [string, RequestListener][] = [["express-static", expressStatic], ["adapter-express", expressAdapter], ["koa-static", koaStatic.callback()], ["adapter-koa", koaAdapter.callback()]];
  const running = await Promise.all(servers.map(async ([name, listener]) => ({ name, ...(await listen(listener)) })));
  const rates: Record<string, number> = {};
  try {
    for (let round = 0; round < (options.rounds ?? 3); round++) {
      for (const { name, port } of running) {
        const r = await load({ port, path: target, headers, connections: options.connections ?? 32, warmupMs: options.warmupMs ?? 300, durationMs: options.durationMs ?? 1000 });
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
  for (const { name } of running) options.print(`  ${name.padEnd(16)} ${String(rates[`${name} req/s`]).padStart(7)} req/s`);
  return rates;
}
