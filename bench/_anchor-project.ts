/**
 * Issue 21's project rows: the seeded test instance on SQLite (an in-memory better-sqlite3
 * database) or PostgreSQL (a fresh schema), served by core's node handler and by the hand-written
 * anchor (bench/_anchor.ts) over the same database, with a self-check that both answer the same
 * status, headers and body bytes for every seeded viewer and project before anything is timed.
 */
import { createServer, request, type RequestListener, type Server } from "node:http";
import { createRequire } from "node:module";
import { createNodeHandler } from "../packages/core/src/node/index.js";
import { createTestForgekit, type TestForgekit } from "../packages/core/src/testing/fixtures.js";
import { kyselyStore, postgres, sqlite } from "../packages/store-kysely/src/index.js";
import { postgresDriver, projectAnchor, sqliteDriver, type AnchorDriver } from "./_anchor.js";
import { load } from "./_http-load.js";

const fromStoreKysely = createRequire(new URL("../packages/store-kysely/package.json", import.meta.url));

/** An instance, the anchor over the same database, and how to close both. */
export interface AnchorPair {
  t: TestForgekit;
  forgekit: RequestListener;
  anchor: RequestListener;
  close(): Promise<void>;
}

/** The seeded instance on an in-memory SQLite database and the anchor over that database. */
export async function sqlitePair(): Promise<AnchorPair> {
  const Database = fromStoreKysely("better-sqlite3") as new (file: string) => Parameters<typeof sqliteDriver>[0] & { close(): void };
  const raw = new Database(":memory:");
  const t = await createTestForgekit({ store: kyselyStore(sqlite(raw as never)) });
  const anchor = projectAnchor(sqliteDriver(raw), { baseUrl: t.baseUrl, now: () => t.clock.now() });
  return { t, forgekit: createNodeHandler(t.fk), anchor, close: async () => {
    void (await t.fk.close());
    raw.close();
  } };
}

type Pool = Parameters<typeof postgresDriver>[0] & { query(sql: string): Promise<unknown>; end(): Promise<void> };
const pg = fromStoreKysely("pg") as { Pool: new (options: { connectionString: string; max: number; options?: string }) => Pool };

/** The seeded instance on a fresh PostgreSQL schema and the anchor over it (its own pool, same size). */
export async function postgresPair(url: string): Promise<AnchorPair> {
  const schema = `forgekit_anchor_${process.pid}_${Date.now().toString(36)}`;
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const t = await createTestForgekit({ store: kyselyStore(postgres(pool as never, { schema })) });
  const anchorPool = new pg.Pool({ connectionString: url, max: 8, options: `-c search_path=${schema}` });
  const anchor = projectAnchor(postgresDriver(anchorPool), { baseUrl: t.baseUrl, now: () => t.clock.now() });
  return {
    t, forgekit: createNodeHandler(t.fk), anchor,
    async close() {
      await anchorPool.end();
      void (await t.fk.close());
      await pool.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}

/** A server on 127.0.0.1 and its port. */
export function listen(listener: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address !== null ? address.port : 0 });
    });
  });
}

interface Answer {
  status: number;
  headers: string;
  body: string;
}

/** One GET; the headers as sent, less `date`, `connection` and `keep-alive` (node's own, identical on both). */
export function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const sent: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (name !== "date" && name !== "connection" && name !== "keep-alive") sent.push(`${name}: ${res.rawHeaders[i + 1]!}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: sent.sort().join("\n"), body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * The self-check: every seeded viewer (root, alice, bob) on every seeded project, through both
 * servers; the same status everywhere, and for 200 answers the same headers and body bytes.
 * Returns the number of 200 answers compared; throws on the first difference.
 */
export async function selfCheck(pair: AnchorPair, forgekitPort: number, anchorPort: number): Promise<number> {
  let compared = 0;
  for (const [who, token] of Object.entries(pair.t.tokens)) {
    for (const [name, project] of Object.entries(pair.t.projects)) {
      const path = `/api/v4/projects/${project.id}`;
      const headers = { "private-token": token };
      const [a, b] = [await get(forgekitPort, path, headers), await get(anchorPort, path, headers)];
      const where = `${who} reading ${name}`;
      if (a.status !== b.status) throw new Error(`anchor self-check, ${where}: forgekit ${a.status}, anchor ${b.status}`);
      if (a.status !== 200) continue;
      if (a.headers !== b.headers) throw new Error(`anchor self-check, ${where}: headers differ\nforgekit:\n${a.headers}\nanchor:\n${b.headers}`);
      if (a.body !== b.body) throw new Error(`anchor self-check, ${where}: bodies differ\nforgekit: ${a.body}\nanchor:   ${b.body}`);
      compared++;
    }
  }
  const bad = await get(anchorPort, `/api/v4/projects/${pair.t.projects.publicProject.id}`, { "private-token": "not-a-token" });
  if (bad.status !== 401) throw new Error(`anchor self-check: an unknown token answered ${bad.status}`);
  return compared;
}

/** Options of a measurement: interleaved rounds of a load window each; the best round of each server counts. */
export interface MeasureOptions {
  rounds?: number;
  connections?: number;
  warmupMs?: number;
  durationMs?: number;
}

/** Requests per second of each named server on `path` (interleaved rounds, best of each). */
export async function measure(servers: Record<string, number>, path: string, headers: Record<string, string>, options: MeasureOptions = {}): Promise<Record<string, number>> {
  const rates: Record<string, number> = {};
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    for (const [name, port] of Object.entries(servers)) {
      const r = await load({ port, path, headers, connections: options.connections ?? 32, warmupMs: options.warmupMs ?? 300, durationMs: options.durationMs ?? 1000 });
      if (r.badStatus > 0 || r.socketErrors > 0) throw new Error(`${name}: ${r.badStatus} non-200 responses, ${r.socketErrors} socket errors`);
      rates[name] = Math.max(rates[name] ?? 0, Math.round(r.requestsPerSecond));
    }
  }
  return rates;
}

/** Self-check, then node handler vs anchor on alice reading the public project; requests/s of each. */
export async function projectRow(pair: AnchorPair, options: MeasureOptions = {}): Promise<{ forgekit: number; anchor: number; compared: number }> {
  const a = await listen(pair.forgekit);
  const b = await listen(pair.anchor);
  try {
    const compared = await selfCheck(pair, a.port, b.port);
    const rates = await measure({ forgekit: a.port, anchor: b.port }, `/api/v4/projects/${pair.t.projects.publicProject.id}`, { "private-token": pair.t.tokens.alice }, options);
    return { forgekit: rates["forgekit"] ?? 0, anchor: rates["anchor"] ?? 0, compared };
  } finally {
    for (const { server } of [a, b]) {
      server.closeAllConnections();
      server.close();
    }
  }
}

export type { AnchorDriver };
