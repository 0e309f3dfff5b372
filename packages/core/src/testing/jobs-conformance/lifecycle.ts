/** The worker pool over a store, ending work: graceful stop (with and without a timeout), cancellation at a step, recurring maintenance jobs. */
import { expect, it } from "vitest";
import { at, deferred, until, type JobsSuiteContext } from "./context.js";
import { FAST, instance, stateOf } from "./instance.js";

export function lifecycleTests(ctx: JobsSuiteContext): void {
  it("workers - stop() lets a running job finish and releases one that reaches its next step, then claims nothing", async () => {
    const t = instance(ctx);
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
    const t = instance(ctx);
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
    const t = instance(ctx);
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
    const a = instance(ctx);
    const b = instance(ctx, "rival", a.clock);
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
}
