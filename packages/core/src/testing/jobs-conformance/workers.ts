/** The worker pool over a store: runs once, retries with backoff, takes over dead workers' jobs, stops gracefully, cancels at a step. */
import { expect, it } from "vitest";
import { at, deferred, until, type JobsSuiteContext } from "./context.js";
import { instance, type JobsInstance } from "./instance.js";

const FAST = { pollIntervalMs: 5, recurring: false } as const;

async function stateOf(t: JobsInstance, id: number): Promise<string> {
  return (await t.fk.jobs.find(id))._unsafeUnwrap().state;
}

export function workerTests(ctx: JobsSuiteContext): void {
  it("workers - a job runs once, with its payload, and ends succeeded", async () => {
    const t = instance(ctx.target.store);
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
    const t = instance(ctx.target.store);
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
      t.clock.advance(1000);
      await until(() => calls === 2, "the second attempt");
      await until(async () => (await t.fk.jobs.find(id))._unsafeUnwrap().runAfter.getTime() === at(3000).getTime(), "the second backoff (2 s)");
      t.clock.advance(2000);
      await until(async () => (await stateOf(t, id)) === "failed", "the job to fail for good");
    } finally {
      await t.fk.workers.stop();
    }
    expect(calls).toBe(3);
    expect((await t.fk.jobs.find(id))._unsafeUnwrap()).toMatchObject({ state: "failed", attempts: 3, lastError: "Error: boom 3", finishedAt: at(3000) });
    expect(t.logs.some((l) => l.event === "jobs.failed")).toBe(true);
  });

  it("workers - a job whose worker died (lease expired without completion) is claimed again and runs", async () => {
    const t = instance(ctx.target.store);
    const attempts: number[] = [];
    t.fk.jobs.define("test.orphan", async (job) => void attempts.push(job.attempt))._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.orphan"))._unsafeUnwrap();
    // A worker claims it and dies: nobody renews or finishes the lease.
    await ctx.target.rival.jobs.claim({ owner: "dead-worker", kinds: ["test.orphan"], limit: 1, now: at(0), leaseUntil: at(30_000) });
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(attempts).toEqual([]);
      t.clock.advance(30_000);
      await until(async () => (await stateOf(t, id)) === "succeeded", "the orphan to succeed");
    } finally {
      await t.fk.workers.stop();
    }
    expect(attempts).toEqual([2]);
  });

  it("workers - a job cancelled while its dead worker held it ends cancelled when taken over, without running", async () => {
    const t = instance(ctx.target.store);
    let ran = false;
    t.fk.jobs.define("test.orphan", async () => void (ran = true))._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.orphan"))._unsafeUnwrap();
    await ctx.target.rival.jobs.claim({ owner: "dead-worker", kinds: ["test.orphan"], limit: 1, now: at(0), leaseUntil: at(30_000) });
    expect((await t.fk.jobs.cancel(id))._unsafeUnwrap()).toMatchObject({ state: "running", cancelRequested: true });
    t.clock.advance(30_000);
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await until(async () => (await stateOf(t, id)) === "cancelled", "the orphan to be cancelled");
    } finally {
      await t.fk.workers.stop();
    }
    expect(ran).toBe(false);
  });

  it("workers - the heartbeat renews a running job's lease, so no other worker takes it over", async () => {
    const t = instance(ctx.target.store);
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
        t.clock.set(at(ms));
        await until(async () => (await t.fk.store.jobs.findById(id))?.leaseExpiresAt?.getTime() === at(ms + 1000).getTime(), `the lease to reach ${ms + 1000} ms`);
      }
      expect(await ctx.target.rival.jobs.claim({ owner: "other", kinds: ["test.long"], limit: 1, now: at(3000), leaseUntil: at(9000) })).toEqual([]);
      release.resolve();
      await until(async () => (await stateOf(t, id)) === "succeeded", "the job to succeed");
    } finally {
      release.resolve();
      await t.fk.workers.stop();
    }
    expect((await t.fk.jobs.find(id))._unsafeUnwrap().attempts).toBe(1);
  });

  it("workers - stop() lets a running job finish and releases one that reaches its next step, then claims nothing", async () => {
    const t = instance(ctx.target.store);
    const finishing = deferred();
    const stepping = deferred();
    const started = new Set<string>();
    let secondStepRan = false;
    t.fk.jobs
      .define("test.finish", async () => {
        started.add("finish");
        await finishing.promise;
      })
      ._unsafeUnwrap();
    t.fk.jobs
      .define("test.steps", async (job) => {
        await job.step("one", async () => void started.add("steps"));
        await stepping.promise;
        await job.step("two", async () => void (secondStepRan = true));
      })
      ._unsafeUnwrap();
    const a = (await t.fk.jobs.enqueue("test.finish"))._unsafeUnwrap();
    const b = (await t.fk.jobs.enqueue("test.steps"))._unsafeUnwrap();
    t.fk.workers.start({ ...FAST, concurrency: 2 })._unsafeUnwrap();
    await until(() => started.size === 2, "both jobs to start");
    let stopped = false;
    const stopping = t.fk.workers.stop().then(() => (stopped = true));
    expect(t.fk.workers.running).toBe(false);
    stepping.resolve();
    await until(async () => (await stateOf(t, b.id)) === "queued", "the stepping job to be released");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    finishing.resolve();
    await stopping;
    expect(secondStepRan).toBe(false);
    expect((await t.fk.jobs.find(a.id))._unsafeUnwrap()).toMatchObject({ state: "succeeded", attempts: 1 });
    expect((await t.fk.jobs.find(b.id))._unsafeUnwrap()).toMatchObject({ state: "queued", attempts: 0, runAfter: at(0) });
    // Stopped means stopped: a due job stays queued.
    const c = (await t.fk.jobs.enqueue("test.finish"))._unsafeUnwrap();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await stateOf(t, c.id)).toBe("queued");
  });

  it("workers - stop({ timeoutMs }) releases a job stuck between steps, and its late finish writes nothing", async () => {
    const t = instance(ctx.target.store);
    const stuck = deferred();
    let started = false;
    let finished = false;
    t.fk.jobs
      .define("test.stuck", async () => {
        started = true;
        await stuck.promise;
        finished = true;
      })
      ._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.stuck"))._unsafeUnwrap();
    const outcomes: string[] = [];
    t.fk.workers.start({ ...FAST, onAttempt: (_job, outcome) => void outcomes.push(outcome) })._unsafeUnwrap();
    await until(() => started, "the job to start");
    await t.fk.workers.stop({ timeoutMs: 30 });
    expect(finished).toBe(false);
    expect((await t.fk.jobs.find(id))._unsafeUnwrap()).toMatchObject({ state: "queued", attempts: 0 });
    expect(t.logs.some((l) => l.event === "jobs.released_on_timeout")).toBe(true);
    stuck.resolve();
    await until(() => outcomes.length === 1, "the late handler to settle");
    expect(outcomes).toEqual(["lost"]);
    expect((await t.fk.jobs.find(id))._unsafeUnwrap().state).toBe("queued");
  });

  it("workers - cancellation stops a running job at its next step; progress is recorded", async () => {
    const t = instance(ctx.target.store);
    const firstDone = deferred();
    const goOn = deferred();
    const ran: string[] = [];
    t.fk.jobs
      .define("test.cancel", async (job) => {
        await job.step("one", async () => void ran.push("one"));
        await job.progress(1, 3);
        firstDone.resolve();
        await goOn.promise;
        await job.step("two", async () => void ran.push("two"));
        await job.step("three", async () => void ran.push("three"));
      })
      ._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.cancel"))._unsafeUnwrap();
    t.fk.workers.start(FAST)._unsafeUnwrap();
    try {
      await firstDone.promise;
      expect((await t.fk.jobs.find(id))._unsafeUnwrap().progress).toEqual({ done: 1, total: 3 });
      expect((await t.fk.jobs.cancel(id))._unsafeUnwrap()).toMatchObject({ state: "running", cancelRequested: true });
      goOn.resolve();
      await until(async () => (await stateOf(t, id)) === "cancelled", "the job to be cancelled");
    } finally {
      await t.fk.workers.stop();
    }
    expect(ran).toEqual(["one"]);
    // A queued job is cancelled before it ever runs.
    const queued = (await t.fk.jobs.enqueue("test.cancel", {}, { runAfter: at(60_000) }))._unsafeUnwrap();
    expect((await t.fk.jobs.cancel(queued.id))._unsafeUnwrap().state).toBe("cancelled");
  });

  it("workers - the recurring retention and OAuth cleanup jobs are scheduled once across two processes, run, and queue their next run", async () => {
    const a = instance(ctx.target.store);
    const b = instance(ctx.target.rival, a.clock);
    a.fk.workers.start({ pollIntervalMs: 5, concurrency: 2 })._unsafeUnwrap();
    b.fk.workers.start({ pollIntervalMs: 5, concurrency: 2 })._unsafeUnwrap();
    const of = async (kind: string) => (await a.fk.jobs.list({ kind }))._unsafeUnwrap().items;
    try {
      for (const kind of ["events.prune", "oauth.purge_expired"]) {
        await until(async () => (await of(kind)).some((j) => j.state === "succeeded"), `${kind} to run`);
      }
      // Let both pools poll a while longer: nothing more runs until the clock reaches the next period.
      await new Promise((resolve) => setTimeout(resolve, 40));
    } finally {
      await Promise.all([a.fk.workers.stop(), b.fk.workers.stop()]);
    }
    const prune = await of("events.prune");
    expect(prune.map((j) => j.state)).toEqual(["queued", "succeeded"]);
    expect(prune[0]?.runAfter).toEqual(at(24 * 60 * 60 * 1000));
    const purge = await of("oauth.purge_expired");
    expect(purge.map((j) => j.state)).toEqual(["queued", "succeeded"]);
    expect(purge[0]?.runAfter).toEqual(at(60 * 60 * 1000));
    // A restart finds the next occurrence queued and schedules nothing more.
    a.fk.workers.start({ pollIntervalMs: 5 })._unsafeUnwrap();
    await new Promise((resolve) => setTimeout(resolve, 30));
    await a.fk.workers.stop();
    expect(await of("events.prune")).toHaveLength(2);
  });

  it("workers - a store failure while polling is logged and retried, never thrown", async () => {
    const t = instance(ctx.target.store);
    t.fk.jobs.define("test.once", async () => {})._unsafeUnwrap();
    const { id } = (await t.fk.jobs.enqueue("test.once"))._unsafeUnwrap();
    const jobs = t.fk.store.jobs;
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
    const t = instance(ctx.target.store);
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
