/**
 * Issue 21, measured against the anchor: authenticated `GET /api/v4/projects/:id` through core's
 * node handler against the same request written by hand (bench/_anchor.ts, bench/README.md), on
 * SQLite and — when FORGEKIT_BENCH_POSTGRES_URL or FORGEKIT_TEST_POSTGRES_URL names a server — on
 * PostgreSQL, both servers in the same run (interleaved rounds, best of each), after a self-check
 * that both answer byte-identical responses. Then route matching with 2,000 extra routes against
 * today's table, the memory store's transaction cost with 100,000 stored tokens against 100, and
 * the per-stage breakdown of the pipeline (bench/_pipeline-stages.ts). Issue 21's whole goal table
 * is printed by `pnpm bench` at the end of the run (bench/_goals.ts).
 */
import { createForgekit } from "../packages/core/src/forgekit.js";
import { createRouter } from "../packages/core/src/http/router.js";
import type { AnyRoute } from "../packages/core/src/http/router.js";
import { memoryStore } from "../packages/core/src/memory-store/index.js";
import { postgresPair, projectRow, sqlitePair, type MeasureOptions } from "./_anchor-project.js";
import { pipelineStages } from "./_pipeline-stages.js";

/** Options of {@link benchAnchor}. */
export interface AnchorBenchOptions extends MeasureOptions {
  /** PostgreSQL server (default: FORGEKIT_BENCH_POSTGRES_URL, else FORGEKIT_TEST_POSTGRES_URL); null skips it. */
  postgresUrl?: string | null;
  print?: (line: string) => void;
}

/** The figure keys bench/_goals.ts reads. */
export const ANCHOR_KEYS = {
  projectSqlite: "GET /projects/:id, node handler / hand-written, SQLite",
  projectPostgres: "GET /projects/:id, node handler / hand-written, PostgreSQL",
  routes: "route matching, 2,000 extra routes / today's table",
  memoryTx: "memory-store transaction, 100k tokens / 100 tokens (cost ratio)",
} as const;

/** Matches per second of `paths` over a router of `routes`. */
function matchRate(routes: readonly AnyRoute[], paths: readonly string[], rounds: number): number {
  const router = createRouter(routes);
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < 200) {
      for (let i = 0; i < 1000; i++) if (router.match("GET", paths[i % paths.length]!).kind !== "matched") throw new Error("route not matched");
      n += 1000;
    }
    best = Math.max(best, n / ((performance.now() - started) / 1000));
  }
  return best;
}

/** Route matching: today's table, then the same with 2,000 more routes (host plugins' shapes); best of interleaved rounds. */
function routeMatching(print: (line: string) => void): number {
  const fk = createForgekit({ baseUrl: "http://bench.local", store: memoryStore(), logger: { log: () => undefined } });
  const today = fk.routes;
  const extra: AnyRoute[] = Array.from({ length: 2000 }, (_, i) => ({ ...today[0]!, method: "GET", path: i % 2 === 0 ? `/plugin${i}/items/:item_id` : `/projects/:id/plugin${i}/:thing` }));
  const paths = ["/api/v4/projects/1", "/api/v4/projects/1/events", "/api/v4/user", "/api/v4/projects/1/issues/3/notes", "/api/v4/groups/grp%2Fsub/projects"];
  let base = 0;
  let big = 0;
  for (let round = 0; round < 3; round++) {
    base = Math.max(base, matchRate(today, paths, 1));
    big = Math.max(big, matchRate([...today, ...extra], paths, 1));
  }
  print(`  route matching: ${today.length} routes ${Math.round(base)} matches/s, ${today.length + extra.length} routes ${Math.round(big)} matches/s`);
  void fk.close();
  return big / base;
}

/** Mean milliseconds of one small write transaction on a memory store holding `tokens` access tokens. */
async function memoryTransaction(tokens: number): Promise<number> {
  const store = memoryStore();
  const now = new Date("2026-01-01T00:00:00Z");
  const user = await store.users.create({ username: "bench", name: "Bench", email: "bench@bench.local" } as never, now);
  if (user === null) throw new Error("memory store: no user");
  let first = 0;
  for (let i = 0; i < tokens; i++) {
    const t = await store.accessTokens.create({ kind: "personal", userId: user.id, name: `t${i}`, scopes: ["api"], digest: `d${i}`, expiresAt: null }, now);
    if (i === 0) first = t.id;
  }
  const once = () => store.transaction((tx) => tx.accessTokens.touchLastUsed(first, now));
  for (let i = 0; i < 5; i++) await once();
  const samples = tokens > 10_000 ? 3 : 200;
  const started = performance.now();
  for (let i = 0; i < samples; i++) await once();
  return (performance.now() - started) / samples;
}

/** The benchmark. */
export async function benchAnchor(options: AnchorBenchOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const postgresUrl = options.postgresUrl === undefined ? (process.env["FORGEKIT_BENCH_POSTGRES_URL"] ?? process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? null) : options.postgresUrl;
  const figures: Record<string, number> = {};
  const databases: [string, () => ReturnType<typeof sqlitePair>, string][] = [["SQLite", sqlitePair, ANCHOR_KEYS.projectSqlite]];
  if (postgresUrl !== null && postgresUrl !== "") databases.push(["PostgreSQL", () => postgresPair(postgresUrl), ANCHOR_KEYS.projectPostgres]);
  else print("PostgreSQL rows skipped: set FORGEKIT_BENCH_POSTGRES_URL or FORGEKIT_TEST_POSTGRES_URL to a local server");
  for (const [label, make, key] of databases) {
    const pair = await make();
    try {
      const row = await projectRow(pair, options);
      print(`authenticated GET /api/v4/projects/:id, ${label}: self-check ${row.compared} responses byte-identical; node handler ${row.forgekit} req/s, hand-written ${row.anchor} req/s`);
      figures[`${label} node handler req/s`] = row.forgekit;
      figures[`${label} hand-written req/s`] = row.anchor;
      figures[key] = Number((row.forgekit / row.anchor).toFixed(3));
    } finally {
      await pair.close();
    }
  }
  figures[ANCHOR_KEYS.routes] = Number(routeMatching(print).toFixed(3));
  const small = await memoryTransaction(100);
  const large = await memoryTransaction(100_000);
  print(`  memory-store transaction: ${(small * 1000).toFixed(1)} µs with 100 tokens, ${(large * 1000).toFixed(1)} µs with 100,000`);
  figures[ANCHOR_KEYS.memoryTx] = Number((large / small).toFixed(3));
  for (const [stage, us] of Object.entries(await pipelineStages(print))) figures[`pipeline stage ${stage} (µs)`] = us;
  return figures;
}

export default benchAnchor;
