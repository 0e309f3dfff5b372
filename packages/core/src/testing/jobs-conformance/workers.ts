/** The worker pool over a store: runs a job once, retries with backoff, takes over dead workers' jobs, renews leases, survives store failures, refuses bad input. */
import { expect, it } from "vitest";
import { at, deferred, until, type JobsSuiteContext } from "./context.js";
import { elapse, FAST, instance, stateOf } from "./instance.js";

export function workerTests(ctx: JobsSuiteContext): void {
  it("workers - a job runs once, with its payload, and ends succeeded", async () => {
    const t = instance(ctx);
    const seen: unknown[] = [];
    t.fk.jobs.define("test.once", async (job) => void seen.push(job.payload))._unsafeUnwrap();
    const job = (await t.fk.jobs.enqueue("test.once", { n: 1 }))._unsafeUnwrap();
    expect(job).toMatchObject({ state: "queued", payload: { n: 1 }, attempts: 0, maxAttempts: 5 });
    t.fk.workers.start({ ...FAST, concurrency: 2 })._unsafeUnwrap();
    try {
      await until(async () => (await stateOf(t, job.id)) === "succeeded", "the job to succeed");
      // Several more polls: nothing runs it again.
      await new Promise((resolve) => setTimeout(resolve, 40));
    } finally {
      await t.fk.workers.stop();
    }
    expect(seen).toEqual([{ n: 1 }]);
    expect((await t.fk.jobs.find(job.id))._unsafeUnwrap()).toMatchObject({ state: "succeeded", attempts: 1, lastError: null, finishedAt: at(0) });
  });

  it("workers - a failing job is retried after exponential backoff and ends failed with its last error after the limit", async () => {
    const t = instance(ctx);
    let calls = 0;
    t.fk.jobs
      .define(
        "test.flaky",
        async () => {
          calls += 1;
          throw new Error(`boom ${calls}`);
        },
        { maxAttempts: 3, backoff: { baseMs: 1000, factor: 2 } },
      )
      ._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.flaky"))._unsafeUnwrap();
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await until(() => calls === 1, "the first attempt");
      await until(async () => (await t.fk.jobs.find(id))._unsafeUnwrap().state === "queued", "the retry to be queued");
      expect((await t.fk.jobs.find(id))._unsafeUnwrap()).toMatchObject({ attempts: 1, lastError: "Error: boom 1", runAfter: at(1000) });
      // Not before the backoff ends (the clock stands still).
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(calls).toBe(1);
      await elapse(ctx, t, 1000);
      await until(() => calls === 2, "the second attempt");
      await until(async () => (await t.fk.jobs.find(id))._unsafeUnwrap().runAfter.getTime() === at(3000).getTime(), "the second backoff (2 s)");
      await elapse(ctx, t, 2000);
      await until(async () => (await stateOf(t, id)) === "failed", "the job to fail for good");
    } finally {
      await t.fk.workers.stop();
    }
    expect(calls).toBe(3);
    expect((await t.fk.jobs.find(id))._unsafeUnwrap()).toMatchObject({ state: "failed", attempts: 3, lastError: "Error: boom 3", finishedAt: at(3000) });
    expect(t.logs.some((l) => l.event === "jobs.failed")).toBe(true);
  });

  it("workers - a job whose worker died (lease expired without completion) is claimed again and runs", async () => {
    const t = instance(ctx);
    const attempts: number[] = [];
    t.fk.jobs.define("test.orphan", async (job) => void attempts.push(job.attempt))._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.orphan"))._unsafeUnwrap();
    // A worker claims it and dies: nobody renews or finishes the lease (a short one in real time).
    const lease = ctx.real ? 1000 : 30_000;
    await ctx.rivalJobs.claim({ owner: "dead-worker", kinds: ["test.orphan"], limit: 1, now: at(0), leaseUntil: at(lease) });
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(attempts).toEqual([]);
      await elapse(ctx, t, lease);
      await until(async () => (await stateOf(t, id)) === "succeeded", "the orphan to succeed");
    } finally {
      await t.fk.workers.stop();
    }
    expect(attempts).toEqual([2]);
  });

  it("workers - a job cancelled while its dead worker held it ends cancelled when taken over, without running", async () => {
    const t = instance(ctx);
    let ran = false;
    t.fk.jobs.define("test.orphan", async () => void (ran = true))._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.orphan"))._unsafeUnwrap();
    const lease = ctx.real ? 1000 : 30_000;
    await ctx.rivalJobs.claim({ owner: "dead-worker", kinds: ["test.orphan"], limit: 1, now: at(0), leaseUntil: at(lease) });
    expect((await t.fk.jobs.cancel(id))._unsafeUnwrap()).toMatchObject({ state: "running", cancelRequested: true });
    await elapse(ctx, t, lease);
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await until(async () => (await stateOf(t, id)) === "cancelled", "the orphan to be cancelled");
    } finally {
      await t.fk.workers.stop();
    }
    expect(ran).toBe(false);
  });

  it("workers - the heartbeat renews a running job's lease, so no other worker takes it over", async () => {
    const t = instance(ctx);
    const release = deferred();
    let started = false;
    t.fk.jobs
      .define("test.long", async () => {
        started = true;
        await release.promise;
      })
      ._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.long"))._unsafeUnwrap();
    t.fk.workers.start({ ...FAST, leaseMs: 1000, heartbeatMs: 5 })._unsafeUnwrap();
    try {
      await until(() => started, "the job to start");
      for (const ms of [900, 1800, 2700]) {
        // Real time too: by 2.7 s a 1 s lease that nobody renewed would long have expired.
        await ctx.pass(900);
        t.clock.set(at(ms));
        await until(async () => (await t.jobs.findById(id))?.leaseExpiresAt?.getTime() === at(ms + 1000).getTime(), `the lease to reach ${ms + 1000} ms`);
      }
      expect(await ctx.rivalJobs.claim({ owner: "other", kinds: ["test.long"], limit: 1, now: at(3000), leaseUntil: at(9000) })).toEqual([]);
      release.resolve();
      await until(async () => (await stateOf(t, id)) === "succeeded", "the job to succeed");
    } finally {
      release.resolve();
      await t.fk.workers.stop();
    }
    expect((await t.fk.jobs.find(id))._unsafeUnwrap().attempts).toBe(1);
  });

  it("workers - a store failure while polling is logged and retried, never thrown", async () => {
    const t = instance(ctx);
    t.fk.jobs.define("test.once", async () => {})._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.once"))._unsafeUnwrap();
    const jobs = t.jobs;
    const claim = jobs.claim.bind(jobs);
    let failures = 2;
    jobs.claim = (c) => (failures-- > 0 ? Promise.reject(new Error("connection refused")) : claim(c));
    try {
      t.fk.workers.start({ ...FAST, maxErrorBackoffMs: 10 })._unsafeUnwrap();
      await until(async () => (await stateOf(t, id)) === "succeeded", "the job to succeed after the store recovered");
    } finally {
      await t.fk.workers.stop();
      jobs.claim = claim;
    }
    expect(t.logs.filter((l) => l.event === "jobs.poll_failed")).toHaveLength(2);
  });

  it("jobs - bad input is a validation error, unknown ids not_found, a held unique key a conflict", async () => {
    const t = instance(ctx);
    t.fk.jobs.define("test.once", async () => {})._unsafeUnwrap();
    expect(t.fk.jobs.define("test.once", async () => {})._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { kind: ["is already defined"] } });
    expect(t.fk.jobs.define("Bad Kind", async () => {})._unsafeUnwrapErr().code).toBe("validation");
    expect((await t.fk.jobs.enqueue("nope"))._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { kind: ["is not defined"] } });
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect((await t.fk.jobs.enqueue("test.once", cyclic))._unsafeUnwrapErr().code).toBe("validation");
    expect((await t.fk.jobs.enqueue("test.once", {}, { maxAttempts: 0 }))._unsafeUnwrapErr().code).toBe("validation");
    expect((await t.fk.jobs.find(9_999_999))._unsafeUnwrapErr().code).toBe("not_found");
    expect((await t.fk.jobs.find(-1))._unsafeUnwrapErr().code).toBe("not_found");
    expect((await t.fk.jobs.cancel(2 ** 60))._unsafeUnwrapErr().code).toBe("not_found");
    expect((await t.fk.jobs.list({ perPage: 101 }))._unsafeUnwrapErr().code).toBe("validation");
    (await t.fk.jobs.enqueue("test.once", {}, { uniqueKey: "u" }))._unsafeUnwrap();
    expect((await t.fk.jobs.enqueue("test.once", {}, { uniqueKey: "u" }))._unsafeUnwrapErr().code).toBe("conflict");
    expect(t.fk.workers.start({ concurrency: 0 })._unsafeUnwrapErr().code).toBe("validation");
    expect(t.fk.workers.start({ kinds: ["nope"] })._unsafeUnwrapErr().code).toBe("validation");
  });
}
