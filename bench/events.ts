/**
 * Event feeds at scale (issue 4): seeds 10,000 and 1,000,000 events into SQLite and reports
 * p50 / p99 latency of the first page and a deep page (page 10 of 20) of each feed — the project
 * feed, the user feed and `GET /events?scope=all` — with and without filters, at both sizes, and
 * the ratio 1M / 10k (goal ≤ 1.5: the feed indexes make a page cost independent of table size).
 * Latency is measured at the service (`fk.events.*`: visibility, query, bounded count), the part the
 * table size can affect. Then the throughput of an authenticated `GET /projects/:id/events?per_page=20`
 * on the 1M database through adapter-express and adapter-koa against express and koa serving the
 * same bytes statically (bench/_events-http.ts; goals ≥ 0.8 and ≥ 0.5).
 */
import type { EventQuery } from "../packages/core/src/events/feeds.js";
import type { EventsService } from "../packages/core/src/events/service.js";
import { measureWithQuery } from "./_events-http.js";
import { seedEvents, type SeededEvents } from "./_events-seed.js";

/** Options of {@link benchEvents}. */
export interface EventsBenchOptions {
  /**
   * Table sizes, smallest first (default 10,000, 100,000 and 1,000,000). Ratios compare the last with
   * the first (the goal) and, with three or more sizes, with the one before it.
   */
  sizes?: readonly number[];
  /** Timed calls per cell after 10 warm-up calls (default 200). */
  samples?: number;
  /** Skip the HTTP throughput part. */
  skipHttp?: boolean;
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

async function latency(s: SeededEvents, feed: Feed, query: EventQuery, page: number, samples: number): Promise<{ p50: number; p99: number; rows: number }> {
  let rows = 0;
  const once = async () => {
    const r = await feed.run(s, query, page);
    if (r.isErr()) throw new Error(`${feed.name} feed failed`);
    rows = r._unsafeUnwrap().items.length;
  };
  for (let i = 0; i < 10; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), rows };
}

/** The benchmark: latency table per size, 1M / 10k ratios, then HTTP throughput on the largest size. */
export async function benchEvents(options: EventsBenchOptions = {}): Promise<Record<string, number>> {
  const print = options.print ?? ((line: string) => console.log(line));
  const sizes = options.sizes ?? [10_000, 100_000, 1_000_000];
  const samples = options.samples ?? 200;
  const figures: Record<string, number> = {};
  const p50s = new Map<string, number[]>();
  let largest: SeededEvents | null = null;
  try {
    for (const [index, size] of sizes.entries()) {
      const seeded = await seedEvents(size);
      print(`${size} events seeded (bulk insert, index build, ANALYZE) in ${seeded.seedSeconds.toFixed(1)} s`);
      figures[`seed ${size} events (s)`] = Number(seeded.seedSeconds.toFixed(2));
      for (const feed of FEEDS) {
        for (const variant of VARIANTS) {
          for (const page of PAGES) {
            const cell = `${feed.name}, ${variant.name}, page ${page}`;
            const m = await latency(seeded, feed, variant.query, page, samples);
            print(`  ${String(size).padStart(7)}  ${cell.padEnd(50)} p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  (${m.rows} rows)`);
            figures[`${size} ${cell} p50 (ms)`] = Number(m.p50.toFixed(3));
            figures[`${size} ${cell} p99 (ms)`] = Number(m.p99.toFixed(3));
            p50s.set(cell, [...(p50s.get(cell) ?? []), m.p50]);
          }
        }
      }
      if (index === sizes.length - 1) largest = seeded;
      else await seeded.dispose();
    }
    const ratios = (from: number, label: string) => {
      print(`p50 ratio ${sizes.at(-1)} / ${sizes[from]}${label}:`);
      for (const [cell, values] of p50s) {
        const ratio = (values.at(-1) ?? Number.NaN) / (values[from] ?? Number.NaN);
        print(`  ${cell.padEnd(50)} ${ratio.toFixed(2)}`);
        figures[`ratio ${sizes.at(-1)}/${sizes[from]} ${cell}${label}`] = Number(ratio.toFixed(2));
      }
    };
    if (sizes.length > 1) ratios(0, " (goal ≤ 1.5)");
    // Above 10,000 visible rows the bounded count (spec "Limits") stops growing: this ratio shows the rest is flat.
    if (sizes.length > 2) ratios(sizes.length - 2, "");
    if (largest !== null && options.skipHttp !== true) {
      print(`authenticated GET /api/v4/projects/:id/events?per_page=20 on ${sizes.at(-1)} events:`);
      const target = `/api/v4/projects/${largest.projects[0]!.id}/events?per_page=20`;
      const http = await measureWithQuery(largest.fk, target, { "private-token": largest.viewerToken }, { print });
      for (const [key, value] of Object.entries(http)) figures[`http ${key}`] = Number(value.toFixed(key.includes("goal") ? 2 : 0));
    }
  } finally {
    await largest?.dispose();
  }
  return figures;
}
