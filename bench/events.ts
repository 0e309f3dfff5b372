/**
 * Event feeds at scale (issues 4 and 12): seeds 10,000 and 1,000,000 events into SQLite — and into
 * PostgreSQL when FORGEKIT_BENCH_POSTGRES_URL or FORGEKIT_TEST_POSTGRES_URL names a server — and
 * reports p50 / p99 latency of the first page and a deep page (page 10 of 20) of each feed — the
 * project feed, the user feed and `GET /events?scope=all` — with and without filters, at both sizes,
 * and the ratio 1M / 10k (goal ≤ 1.5: the feed indexes make a page, and the event counters the
 * `x-total` decision, cost the same at any table size). The sizes are seeded first and measured
 * in interleaved rounds, so a busy machine's load drift falls on all alike. Latency is measured at the service
 * (`fk.events.*`: visibility, query, total), the part the table size can affect. Then the
 * throughput of an authenticated `GET /projects/:id/events?per_page=20` on the 1M SQLite database
 * through adapter-express and adapter-koa against express and koa serving the same bytes statically
 * (bench/_events-http.ts). Ends with issue 12's rows: `<row>: <value> (goal <goal>) met|MISSED`.
 */
import type { EventQuery } from "../packages/core/src/events/feeds.js";
import type { EventsService } from "../packages/core/src/events/service.js";
import { measureWithQuery } from "./_events-http.js";
import { seedEvents, type SeededEvents, type SeedTarget } from "./_events-seed.js";

/** Options of {@link benchEvents}. */
export interface EventsBenchOptions {
  /**
   * Table sizes, smallest first (default 10,000 and 1,000,000). Ratios compare the last with the
   * first (the goal) and, with three or more sizes, with the one before it.
   */
  sizes?: readonly number[];
  /** Timed calls per cell after 10 warm-up calls (default 200). */
  samples?: number;
  /** Skip the HTTP throughput part. */
  skipHttp?: boolean;
  /** PostgreSQL server for the same feed measurements (default: FORGEKIT_BENCH_POSTGRES_URL, else FORGEKIT_TEST_POSTGRES_URL); null skips them. */
  postgresUrl?: string | null;
  print?: (line: string) => void;
}

type Feed = { name: string; run: (s: SeededEvents, query: EventQuery, page: number) => ReturnType<EventsService["ofProject"]> };

const FEEDS: readonly Feed[] = [
  { name: "project", run: (s, q, page) => s.fk.events.ofProject(s.viewer, s.projects[0]!.id, q, { kind: "offset", page, perPage: 20 }) },
  { name: "user", run: (s, q, page) => s.fk.events.ofUser(s.viewer, s.authors[3]!.id, q, { kind: "offset", page, perPage: 20 }) },
  { name: "scope=all", run: (s, q, page) => s.fk.events.own(s.member, { ...q, scope: "all" }, { kind: "offset", page, perPage: 20 }) },
];

const VARIANTS: readonly { name: string; query: EventQuery }[] = [
  { name: "no filter", query: {} },
  { name: "action+target_type+after", query: { action: "created", targetType: "issue", after: "2024-01-01" } },
];

const PAGES = [1, 10] as const;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Rounds per cell: every size gets a slice of the samples in each round, so load drift on a busy machine hits all sizes alike. */
const ROUNDS = 10;

/** p50 / p99 of one cell at every size, the sizes' samples interleaved round by round. */
async function latencies(seeded: readonly SeededEvents[], feed: Feed, query: EventQuery, page: number, samples: number): Promise<{ p50: number; p99: number; rows: number }[]> {
  const rows = seeded.map(() => 0);
  const once = async (i: number) => {
    const r = await feed.run(seeded[i]!, query, page);
    if (r.isErr()) throw new Error(`${feed.name} feed failed`);
    rows[i] = r._unsafeUnwrap().items.length;
  };
  for (const i of seeded.keys()) for (let k = 0; k < 10; k++) await once(i);
  const times: number[][] = seeded.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of seeded.keys()) {
      for (let k = 0; k < Math.ceil(samples / ROUNDS); k++) {
        const t0 = performance.now();
        await once(i);
        times[i]!.push(performance.now() - t0);
      }
    }
  }
  return times.map((list, i) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p99: percentile(list, 99), rows: rows[i] ?? 0 };
  });
}

/** The goals of issue 12's feed rows. */
const RATIO_GOAL = 1.5;
const P50_GOAL_MS = 0.25;
const HTTP_GOALS = { express: 0.5, koa: 0.2 } as const;

/** The latency table of one database per size, and the ratios; figures go into `figures` under `prefix`. */
async function feedTable(target: SeedTarget, sizes: readonly number[], samples: number, prefix: string, figures: Record<string, number>, print: (line: string) => void, keepLargest: boolean) {
  const p50s = new Map<string, number[]>();
  let largest: SeededEvents | null = null;
  // Every size is seeded first and measured side by side (interleaved rounds), so the ratios compare like with like.
  const seeded: SeededEvents[] = [];
  try {
    for (const size of sizes) {
      const one = await seedEvents(size, target);
      seeded.push(one);
      print(`${prefix}${size} events seeded (bulk insert, index build, counters, ANALYZE) in ${one.seedSeconds.toFixed(1)} s`);
      figures[`${prefix}seed ${size} events (s)`] = Number(one.seedSeconds.toFixed(2));
    }
    for (const feed of FEEDS) {
      for (const variant of VARIANTS) {
        for (const page of PAGES) {
          const cell = `${feed.name}, ${variant.name}, page ${page}`;
          const measured = await latencies(seeded, feed, variant.query, page, samples);
          for (const [index, m] of measured.entries()) {
            const size = sizes[index]!;
            print(`  ${prefix}${String(size).padStart(7)}  ${cell.padEnd(50)} p50 ${m.p50.toFixed(3).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  (${m.rows} rows)`);
            figures[`${prefix}${size} ${cell} p50 (ms)`] = Number(m.p50.toFixed(3));
            figures[`${prefix}${size} ${cell} p99 (ms)`] = Number(m.p99.toFixed(3));
          }
          p50s.set(cell, measured.map((m) => m.p50));
        }
      }
    }
  } finally {
    for (const [index, one] of seeded.entries()) {
      if (keepLargest && index === sizes.length - 1) largest = one;
      else await one.dispose();
    }
  }
  const ratiosFrom = (from: number, label: string) => {
    print(`${prefix}p50 ratio ${sizes.at(-1)} / ${sizes[from]}${label}:`);
    const out: number[] = [];
    for (const [cell, values] of p50s) {
      const ratio = (values.at(-1) ?? Number.NaN) / (values[from] ?? Number.NaN);
      print(`  ${cell.padEnd(50)} ${ratio.toFixed(2)}`);
      figures[`${prefix}ratio ${sizes.at(-1)}/${sizes[from]} ${cell}${label}`] = Number(ratio.toFixed(2));
      out.push(ratio);
    }
    return out;
  };
  const ratios = sizes.length > 1 ? ratiosFrom(0, ` (goal ≤ ${RATIO_GOAL})`) : [];
  // Above 10,000 visible rows the bounded count (spec "Limits") stops growing: this ratio shows the rest is flat.
  if (sizes.length > 2) ratiosFrom(sizes.length - 2, "");
  const largestP50s = [...p50s.values()].map((values) => values.at(-1) ?? Number.NaN);
  return { ratios, largestP50s, largest };
}

const range = (values: readonly number[], digits: number, unit = "") =>
  `${Math.min(...values).toFixed(digits)}${unit}–${Math.max(...values).toFixed(digits)}${unit}`;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

/** The benchmark: latency table per size and database, 1M / 10k ratios, HTTP throughput on the largest SQLite size, issue 12's rows. */
export async function benchEvents(options: EventsBenchOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const sizes = options.sizes ?? [10_000, 1_000_000];
  const samples = options.samples ?? 200;
  const postgresUrl = options.postgresUrl === undefined ? (process.env["FORGEKIT_BENCH_POSTGRES_URL"] ?? process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? null) : options.postgresUrl;
  const figures: Record<string, number> = {};
  const rows: string[] = [];
  const big = sizes.at(-1) ?? 0;
  const small = sizes[0] ?? 0;
  const feedRows = (label: string, ratios: readonly number[], p50s: readonly number[], p50Goal: boolean) => {
    if (ratios.length > 0) {
      const worst = Math.max(...ratios);
      rows.push(`feed p50, ${big} events / ${small} events (12 feed shapes), ${label}: ${range(ratios, 2, "×")} (goal ≤ ${RATIO_GOAL}× for every shape) ${verdict(worst <= RATIO_GOAL)}`);
      figures[`${label} worst feed p50 ratio ${big}/${small} (goal ≤ ${RATIO_GOAL})`] = Number(worst.toFixed(2));
    }
    const slowest = Math.max(...p50s);
    rows.push(`feed p50 at ${big} events, ${label}: ${range(p50s, 3, " ms")} (goal ${p50Goal ? `≤ ${P50_GOAL_MS} ms` : `none; SQLite's is ≤ ${P50_GOAL_MS} ms`})${p50Goal ? ` ${verdict(slowest <= P50_GOAL_MS)}` : ""}`);
    figures[`${label} slowest feed p50 at ${big} (ms)`] = Number(slowest.toFixed(3));
  };

  const sqliteRun = await feedTable({ kind: "sqlite" }, sizes, samples, "", figures, print, options.skipHttp !== true);
  feedRows("SQLite", sqliteRun.ratios, sqliteRun.largestP50s, true);
  const largest = sqliteRun.largest;
  try {
    if (largest !== null) {
      print(`authenticated GET /api/v4/projects/:id/events?per_page=20 on ${big} events (SQLite):`);
      const target = `/api/v4/projects/${largest.projects[0]!.id}/events?per_page=20`;
      const http = await measureWithQuery(largest.fk, target, { "private-token": largest.viewerToken }, { print });
      for (const [key, value] of Object.entries(http)) if (key.endsWith("req/s")) figures[`http ${key}`] = Math.round(value);
      const express = (http["adapter-express req/s"] ?? 0) / (http["express-static req/s"] ?? 1);
      const koa = (http["adapter-koa req/s"] ?? 0) / (http["koa-static req/s"] ?? 1);
      figures[`http adapter-express / express-static (goal ≥ ${HTTP_GOALS.express})`] = Number(express.toFixed(2));
      figures[`http adapter-koa / koa-static (goal ≥ ${HTTP_GOALS.koa})`] = Number(koa.toFixed(2));
      rows.push(`authenticated GET /projects/:id/events?per_page=20, ${big} events, SQLite, adapter-express / express-static: ${express.toFixed(2)}× (goal ≥ ${HTTP_GOALS.express}×) ${verdict(express >= HTTP_GOALS.express)}`);
      rows.push(`same through adapter-koa / koa-static: ${koa.toFixed(2)}× (goal ≥ ${HTTP_GOALS.koa}×) ${verdict(koa >= HTTP_GOALS.koa)}`);
    }
  } finally {
    await largest?.dispose();
  }

  if (postgresUrl === null || postgresUrl === "") {
    rows.push("PostgreSQL feed rows: skipped (set FORGEKIT_BENCH_POSTGRES_URL or FORGEKIT_TEST_POSTGRES_URL to a local server)");
  } else {
    const pgRun = await feedTable({ kind: "postgres", url: postgresUrl }, sizes, samples, "postgres ", figures, print, false);
    feedRows("PostgreSQL", pgRun.ratios, pgRun.largestP50s, false);
  }
  print("issue 12 rows (events):");
  for (const row of rows) print(`  ${row}`);
  return figures;
}
