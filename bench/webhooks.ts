/**
 * Webhook delivery (issue 20): "10,000 push events to 10 hooks against a local receiver — goal
 * ≥ 1,000 deliveries/s on SQLite, server RSS < 250 MB, delivery p99 latency from commit < 1 s when
 * the receiver is healthy".
 *
 * forgekit runs in this process as a host runs it (SQLite file database, git repository storage,
 * workers in process; bench/_webhooks-world.ts); the receiver is a process of its own
 * (`_webhooks-receiver.mjs`, plain node:http answering 200). Pushes are recorded through
 * `fk.pushes.record` — the transaction git-over-HTTP uses: the `pushed` event and one delivery (and
 * job) per hook — with real shas of the project's repository, so every payload reads real commits.
 * Push i goes to branch `bench-<i>`, which is how the receiver maps a delivery back to its push.
 *
 * Phase 1 (throughput): N pushes (FORGEKIT_BENCH_WEBHOOK_EVENTS, default 10,000) recorded one after
 * the other with the workers running; measured until all N × hooks deliveries arrived or the cap
 * (FORGEKIT_BENCH_WEBHOOK_CAP_SECONDS, default 300) passed: deliveries/s from the first commit to
 * the last arrival (at the cap: to the cap), duplicates, per-hook order, peak RSS (sampled every
 * 100 ms), and how the delivery jobs' attempts went. Phase 2 (latency): a fresh instance (an empty
 * queue), pushes at a steady FORGEKIT_BENCH_WEBHOOK_RATE per second (default 50, i.e. 500
 * deliveries/s) for 10 s; p50 / p99 from each push's commit (`record` resolved) to its arrival.
 * FORGEKIT_BENCH_WEBHOOK_CONCURRENCY sets the workers' concurrency (default 10).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { JobRecord } from "../packages/core/src/ports/jobs-store.js";
import { deliveryTables, nowMs, percentile, startReceiver, startWorld, type ReceiverReport, type WebhookWorld } from "./_webhooks-world.js";

const env = (name: string, fallback: number) => Number(process.env[`FORGEKIT_BENCH_WEBHOOK_${name}`] ?? fallback);
const GOALS = { perSecond: 1000, rssMb: 250, p99Ms: 1000 };
const DELIVERY_JOB = "webhooks.deliver";

export interface WebhooksBenchOptions {
  events?: number;
  hooks?: number;
  capSeconds?: number;
  concurrency?: number;
  /** Pushes per second in phase 2. */
  rate?: number;
  latencySeconds?: number;
  pollIntervalMs?: number;
  print?: (line: string) => void;
}

/** Counts the delivery jobs' attempts by outcome, the highest attempt number, and why retried attempts had failed before. */
function attemptTally() {
  const outcomes: Record<string, number> = {};
  const reasons = new Map<string, number>();
  const tally = {
    outcomes,
    maxAttempt: 0,
    onAttempt: (job: JobRecord, outcome: string) => {
      if (job.kind !== DELIVERY_JOB) return;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      tally.maxAttempt = Math.max(tally.maxAttempt, job.attempts);
      // A claimed job's lastError is its previous attempt's failure.
      const why = job.lastError?.slice(0, 80);
      if (job.attempts > 1 && why !== undefined) reasons.set(why, (reasons.get(why) ?? 0) + 1);
    },
    reasons: () => [...reasons.entries()].sort((x, y) => y[1] - x[1]).map(([why, n]) => `${n} × ${why}`),
  };
  return tally;
}

/**
 * Latencies (ms) from each push's commit to each hook's arrival, ascending; with `end`, a delivery
 * that never arrived counts as `end` − its commit (a lower bound of its latency), else it is left out.
 */
function latencies(report: ReceiverReport, commits: readonly number[], hooks: number, pushes: number, end?: number): number[] {
  const sorted: number[] = [];
  for (let k = 0; k < hooks; k += 1) {
    for (let i = 0; i < commits.length; i += 1) {
      const at = report.arrivals[k * pushes + i] ?? 0;
      if (at !== 0) sorted.push(at - (commits[i] ?? 0));
      else if (end !== undefined) sorted.push(end - (commits[i] ?? 0));
    }
  }
  return sorted.sort((a, b) => a - b);
}

/**
 * One phase: a fresh world and receiver, the workers started, `drive` recording pushes, then a wait
 * for the arrivals — at most `capMs` from the start and `afterLastMs` after the last push. The cap
 * is also enforced from the workers' attempt callback: a job loop that never yields would starve
 * the timers this wait (and the RSS sampler) run on, so it stops the workers itself.
 */
async function phase(o: Required<WebhooksBenchOptions>, pushes: number, capMs: number, afterLastMs: number, drive: (w: WebhookWorld, commits: number[], deadline: number) => Promise<void>) {
  const receiver = await startReceiver(o.hooks, pushes);
  const world = await startWorld(o.hooks, receiver.url);
  const tally = attemptTally();
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  let sampled = 0;
  const sample = () => void ((sampled = nowMs()), (peakRss = Math.max(peakRss, process.memoryUsage.rss())));
  const sampler = setInterval(sample, 100);
  // How long this process's event loop (an embedding host's HTTP server) could not run a timer.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const commits: number[] = [];
  const started = nowMs();
  const deadline = started + capMs;
  const cap: { stop: Promise<void> | null } = { stop: null };
  const onAttempt = (job: JobRecord, outcome: string) => {
    tally.onAttempt(job, outcome);
    if (nowMs() - sampled >= 100) sample();
    if (nowMs() > deadline && cap.stop === null) cap.stop = world.fk.workers.stop({ timeoutMs: 15_000 });
  };
  try {
    world.fk.workers.start({ concurrency: o.concurrency, pollIntervalMs: o.pollIntervalMs, recurring: false, onAttempt })._unsafeUnwrap();
    await drive(world, commits, deadline);
    const recorded = nowMs();
    const total = commits.length * o.hooks;
    const until = Math.min(deadline, recorded + afterLastMs);
    let told = nowMs();
    while (receiver.arrived() < total && nowMs() < until) {
      await sleep(100);
      if (nowMs() - told >= 10_000) {
        told = nowMs();
        o.print(`  ${((told - (commits[0] ?? started)) / 1000).toFixed(0)} s: ${receiver.arrived()} / ${total} arrived, ${JSON.stringify(tally.outcomes)}, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB`);
      }
    }
    const tables = deliveryTables(world.dbFile, DELIVERY_JOB);
    const end = nowMs();
    const report = await receiver.report();
    const complete = report.arrived === total;
    const stop = complete ? report.arrivals.reduce((a, b) => Math.max(a, b), 0) : end;
    const seconds = (stop - (commits[0] ?? started)) / 1000;
    const stoppedByCallback = cap.stop !== null;
    return { report, commits, tally, tables, loopDelayMaxMs: loopDelay.max / 1e6, startRss, peakRss, seconds, end, complete, total, stoppedByCallback, recordSeconds: (recorded - started) / 1000 };
  } finally {
    clearInterval(sampler);
    loopDelay.disable();
    receiver.close();
    await cap.stop;
    await world.close();
  }
}

const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

export default async function benchWebhooks(options: WebhooksBenchOptions = {}): Promise<Record<string, number>> {
  const o: Required<WebhooksBenchOptions> = {
    events: options.events ?? env("EVENTS", 10_000),
    hooks: options.hooks ?? env("HOOKS", 10),
    capSeconds: options.capSeconds ?? env("CAP_SECONDS", 300),
    concurrency: options.concurrency ?? env("CONCURRENCY", 10),
    rate: options.rate ?? env("RATE", 50),
    latencySeconds: options.latencySeconds ?? env("LATENCY_SECONDS", 10),
    pollIntervalMs: options.pollIntervalMs ?? env("POLL_MS", 20),
    print: options.print ?? ((line: string) => console.log(line)),
  };
  const { print } = o;
  const record = (w: WebhookWorld, i: number) =>
    w.fk.pushes.record({ projectId: w.projectId, authorId: w.authorId, ref: `bench-${i}`, commitFrom: w.push.from, commitTo: w.push.to, commitCount: w.push.count }).then((r) => r._unsafeUnwrap());

  print(`phase 1: ${o.events} pushes to ${o.hooks} hooks (${o.events * o.hooks} deliveries), workers concurrency ${o.concurrency}, poll ${o.pollIntervalMs} ms, cap ${o.capSeconds} s`);
  const one = await phase(o, o.events, o.capSeconds * 1000, Infinity, async (w, commits, deadline) => {
    for (let i = 0; i < o.events && nowMs() < deadline; i += 1) {
      await record(w, i);
      commits.push(nowMs());
      if ((i + 1) % 1000 === 0) print(`  recorded ${i + 1} pushes`);
    }
  });
  const perSecond = one.report.arrived / one.seconds;
  const allArrived = one.complete && one.commits.length === o.events;
  const stalled = (p: { stoppedByCallback: boolean; loopDelayMaxMs: number }) =>
    p.stoppedByCallback ? `; the cap was enforced from the attempt callback (no timer ran for up to ${(p.loopDelayMaxMs / 1000).toFixed(0)} s)` : "";
  const rssMb = one.peakRss / 2 ** 20;
  const oneLatency = latencies(one.report, one.commits, o.hooks, o.events);
  print(`  recorded ${one.commits.length} of ${o.events} pushes in ${one.recordSeconds.toFixed(1)} s (${(one.commits.length / one.recordSeconds).toFixed(0)} pushes/s, workers running)`);
  print(`  ${one.report.arrived} / ${one.total} deliveries arrived in ${one.seconds.toFixed(1)} s${one.complete ? "" : ` (cap reached${stalled(one)})`}: ${perSecond.toFixed(0)} deliveries/s; duplicates ${one.report.duplicates}, order violations ${one.report.orderViolations}, unmapped ${one.report.unmapped}`);
  print(`  delivery job attempts: ${JSON.stringify(one.tally.outcomes)}, highest attempt ${one.tally.maxAttempt}; longest event-loop stall ${one.loopDelayMaxMs.toFixed(0)} ms`);
  print(`  at the end: delivery jobs by state ${JSON.stringify(one.tables.jobs)}, deliveries by state ${JSON.stringify(one.tables.deliveries)}`);
  for (const why of one.tally.reasons().slice(0, 3)) print(`  retried after: ${why}`);
  print(`  latency from commit (arrived ones): p50 ${percentile(oneLatency, 50).toFixed(0)} ms, p99 ${percentile(oneLatency, 99).toFixed(0)} ms; peak RSS ${rssMb.toFixed(0)} MB (${(one.startRss / 2 ** 20).toFixed(0)} MB when the phase started: this process, tsx included)`);

  const pushes = Math.round(o.rate * o.latencySeconds);
  print(`phase 2: a fresh instance, ${o.rate} pushes/s for ${o.latencySeconds} s (${pushes * o.hooks} deliveries)`);
  const two = await phase(o, pushes, (o.latencySeconds + 60) * 1000, 60_000, async (w, commits, deadline) => {
    const start = nowMs();
    for (let i = 0; i < pushes && nowMs() < deadline; i += 1) {
      const due = start + (i * 1000) / o.rate;
      if (due > nowMs()) await sleep(due - nowMs());
      await record(w, i);
      commits.push(nowMs());
    }
  });
  // A delivery that never arrived counts as the end of the wait − its commit.
  const waited = latencies(two.report, two.commits, o.hooks, pushes, two.end);
  const p50 = percentile(waited, 50);
  const p99 = percentile(waited, 99);
  print(`  recorded ${two.commits.length} of ${pushes} pushes at ${(two.commits.length / two.recordSeconds).toFixed(0)} pushes/s${stalled(two)}; ${two.report.arrived} / ${two.total} arrived; latency from commit p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${(waited.at(-1) ?? 0).toFixed(0)} ms; duplicates ${two.report.duplicates}, order violations ${two.report.orderViolations}`);
  print(`  delivery job attempts: ${JSON.stringify(two.tally.outcomes)}, highest attempt ${two.tally.maxAttempt}; longest event-loop stall ${two.loopDelayMaxMs.toFixed(0)} ms`);

  print("issue 20 rows (webhooks):");
  print(`  delivery throughput, ${o.events} pushes × ${o.hooks} hooks, SQLite: ${perSecond.toFixed(0)} deliveries/s${allArrived ? "" : ` (${one.report.arrived} of ${o.events * o.hooks} by the ${o.capSeconds} s cap)`} (goal ≥ ${GOALS.perSecond}) ${verdict(allArrived && perSecond >= GOALS.perSecond)}`);
  print(`  server peak RSS during it: ${rssMb.toFixed(0)} MB, ${((one.peakRss - one.startRss) / 2 ** 20).toFixed(0)} MB over its start under tsx (goal < ${GOALS.rssMb} MB) ${verdict(rssMb < GOALS.rssMb)}`);
  print(`  delivery p99 latency from commit at ${o.rate * o.hooks} deliveries/s, healthy receiver: ${p99.toFixed(0)} ms (goal < ${GOALS.p99Ms} ms) ${verdict(p99 < GOALS.p99Ms)}`);
  return {
    "worker concurrency": o.concurrency,
    "phase 1 pushes recorded/s": round(one.commits.length / one.recordSeconds),
    "deliveries/s": round(perSecond),
    "phase 1 deliveries arrived": one.report.arrived,
    "phase 1 deliveries expected": o.events * o.hooks,
    "phase 1 seconds": round(one.seconds, 1),
    "phase 1 duplicates": one.report.duplicates,
    "phase 1 order violations": one.report.orderViolations,
    "phase 1 delivery job retries": one.tally.outcomes["retry"] ?? 0,
    "phase 1 highest job attempt": one.tally.maxAttempt,
    "phase 1 delivery jobs still queued": one.tables.jobs["queued"]?.count ?? 0,
    "phase 1 longest event-loop stall (ms)": round(one.loopDelayMaxMs),
    "phase 1 latency p99 of arrived (ms)": round(percentile(oneLatency, 99)),
    "server peak RSS (MB)": round(rssMb),
    "server RSS at phase 1 start (MB)": round(one.startRss / 2 ** 20),
    "server RSS growth in phase 1 (MB)": round((one.peakRss - one.startRss) / 2 ** 20),
    "phase 2 deliveries arrived": two.report.arrived,
    "phase 2 latency p50 (ms)": round(p50),
    "phase 2 latency p99 (ms)": round(p99),
  };
}
