/**
 * The worker registry (ports/jobs-store.ts `heartbeat`): a job whose worker's heartbeat stopped is
 * taken over before its lease ends, and only then. A repository without a registry (a queue engine
 * whose own locks decide, e.g. BullMQ) skips these cases: its dead workers' jobs wait for the lease.
 */
import { expect, it } from "vitest";
import { at, deferred, newJob, T0, until, type JobsSuiteContext } from "./context.js";
import { FAST, instance, stateOf } from "./instance.js";

/** A lease far longer than any case: only the registry can free the job. */
const LONG_LEASE = 3_600_000;

const claimAt = (ms: number, owner: string) => ({ owner, kinds: ["test.work"], limit: 10, now: at(ms), leaseUntil: at(ms + LONG_LEASE) });

export function deadWorkerTests(ctx: JobsSuiteContext): void {
  /** The rival's `heartbeat`, or null for a target declared without a registry; a target that should have one and lacks it fails. */
  const registry = () => {
    if (ctx.options.workerRegistry === false) return null;
    const rival = ctx.rivalJobs.heartbeat?.bind(ctx.rivalJobs);
    expect(rival, "the jobs repository implements the worker registry (heartbeat)").toBeTypeOf("function");
    return { rival: rival ?? (() => Promise.resolve()) };
  };

  it("workers registry - a running job whose worker's heartbeat stopped is claimed before its lease ends, not while the worker beats", async ({ skip }) => {
    const beats = registry();
    if (beats === null) return skip(`${ctx.name}: no worker registry (dead workers' jobs wait for their lease)`);
    const job = await ctx.jobs.enqueue(newJob(), T0);
    await beats.rival("dead-worker", at(10_000), T0);
    expect((await ctx.rivalJobs.claim(claimAt(0, "dead-worker"))).map((j) => j.id)).toEqual([job?.id]);
    // Alive until 10 s: its job stays with it, although any later claim could have run it.
    expect(await ctx.jobs.claim(claimAt(9_999, "w2"))).toEqual([]);
    // A worker whose own beat is late never takes its own job back.
    expect(await ctx.rivalJobs.claim(claimAt(20_000, "dead-worker"))).toEqual([]);
    const [taken] = await ctx.jobs.claim(claimAt(10_000, "w2"));
    expect(taken).toMatchObject({ id: job?.id, state: "running", attempts: 2, leaseOwner: "w2" });
    // The dead worker's writes are refused, as after a lost lease.
    expect(await ctx.rivalJobs.complete(job?.id ?? 0, "dead-worker", at(10_001))).toBe(false);
  });

  it("workers registry - a worker that beats keeps its jobs past its first window; one without a row or retired waits for the lease", async ({ skip }) => {
    const beats = registry();
    if (beats === null) return skip(`${ctx.name}: no worker registry`);
    const kept = await ctx.jobs.enqueue(newJob(), T0);
    await beats.rival("live", at(10_000), T0);
    await ctx.rivalJobs.claim({ ...claimAt(0, "live"), limit: 1 });
    await beats.rival("live", at(20_000), at(9_000));
    expect(await ctx.jobs.claim(claimAt(15_000, "w2"))).toEqual([]);
    const unregistered = await ctx.jobs.enqueue(newJob(), T0);
    await ctx.rivalJobs.claim({ ...claimAt(0, "no-row"), limit: 1, leaseUntil: at(30_000) });
    await beats.rival("retired", at(10_000), T0);
    const retired = await ctx.jobs.enqueue(newJob(), T0);
    await ctx.rivalJobs.claim({ ...claimAt(0, "retired"), limit: 1, leaseUntil: at(30_000) });
    await ctx.rivalJobs.retire?.("retired");
    expect((await ctx.jobs.claim(claimAt(25_000, "w2"))).map((j) => j.id)).toEqual([kept?.id]);
    expect((await ctx.jobs.claim(claimAt(30_000, "w2"))).map((j) => j.id).sort()).toEqual([unregistered?.id, retired?.id].sort());
  });

  it("workers registry - a job whose dead worker held its last attempt ends failed when the heartbeat stopped", async ({ skip }) => {
    const beats = registry();
    if (beats === null) return skip(`${ctx.name}: no worker registry`);
    const job = await ctx.jobs.enqueue(newJob({ maxAttempts: 1 }), T0);
    await beats.rival("dead-worker", at(5_000), T0);
    await ctx.rivalJobs.claim(claimAt(0, "dead-worker"));
    expect(await ctx.jobs.claim(claimAt(5_000, "w2"))).toEqual([]);
    expect(await ctx.jobs.findById(job?.id ?? 0)).toMatchObject({ state: "failed", leaseOwner: null, finishedAt: at(5_000) });
  });

  it("workers - a pool that starts takes over a crashed worker's job once its heartbeat stopped, long before the lease ends", async ({ skip }) => {
    const beats = registry();
    if (beats === null) return skip(`${ctx.name}: no worker registry`);
    const t = instance(ctx);
    const attempts: number[] = [];
    t.fk.jobs.define("test.work", async (job) => void attempts.push(job.attempt))._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.work"))._unsafeUnwrap();
    // A process claimed it, beat once (alive for 10 s) and was killed.
    await beats.rival("killed", at(10_000), T0);
    await ctx.rivalJobs.claim(claimAt(0, "killed"));
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await until(() => t.logs.some((l) => l.event === "jobs.workers_started"), "the pool to start");
      t.clock.set(at(10_000));
      await until(async () => (await stateOf(t, id)) === "succeeded", "the crashed worker's job to run again");
    } finally {
      await t.fk.workers.stop();
    }
    expect(attempts).toEqual([2]);
  });

  it("workers - a running pool beats in the registry, so no other worker takes its job; a stopped pool leaves no row", async ({ skip }) => {
    if (registry() === null) return skip(`${ctx.name}: no worker registry`);
    const t = instance(ctx);
    const release = deferred();
    let started = false;
    t.fk.jobs
      .define("test.work", async () => {
        started = true;
        await release.promise;
      })
      ._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.work"))._unsafeUnwrap();
    const seen: Date[] = [];
    const heartbeat = t.jobs.heartbeat?.bind(t.jobs);
    t.jobs.heartbeat = async (owner, aliveUntil, now) => {
      await heartbeat?.(owner, aliveUntil, now);
      seen.push(aliveUntil);
    };
    t.fk.workers.start({ ...FAST, leaseMs: LONG_LEASE, workerHeartbeatMs: 5 })._unsafeUnwrap();
    try {
      await until(() => started, "the job to start");
      for (const ms of [60_000, 120_000]) {
        t.clock.set(at(ms));
        await until(() => seen.some((d) => d.getTime() > at(ms).getTime()), `a beat after ${ms} ms`);
        expect(await ctx.rivalJobs.claim(claimAt(ms, "other"))).toEqual([]);
      }
      release.resolve();
      await until(async () => (await stateOf(t, id)) === "succeeded", "the job to succeed");
    } finally {
      release.resolve();
      await t.fk.workers.stop();
      t.jobs.heartbeat = heartbeat;
    }
    expect(seen[0]).toEqual(at(25)); // 5 beats of 5 ms from T0
    // Stopped (its row gone): a job it had left running would only be freed by its lease.
    const orphan = await ctx.jobs.enqueue(newJob(), at(120_000));
    await ctx.jobs.claim({ ...claimAt(120_000, t.fk.workers.owner), limit: 1 });
    expect(await ctx.rivalJobs.claim(claimAt(130_000, "other"))).toEqual([]);
    expect((await ctx.jobs.findById(orphan?.id ?? 0))?.leaseOwner).toBe(t.fk.workers.owner);
  });
}
