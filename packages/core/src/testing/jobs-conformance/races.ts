/** Racing claimers over one database: every job is taken, and run, by exactly one of them. */
import { expect, it } from "vitest";
import type { JobRepository } from "../../ports/jobs-store.js";
import { at, newJob, T0, until, type JobsSuiteContext } from "./context.js";
import { instance } from "./instance.js";

export function raceTests(ctx: JobsSuiteContext): void {
  it("jobs.claim - racing claimers on two stores of one database take each job exactly once", async () => {
    const n = ctx.options.races ?? 40;
    for (let i = 0; i < n; i += 1) await ctx.jobs.enqueue(newJob(), T0);
    const taken: number[] = [];
    const started = performance.now();
    const claimer = async (jobs: JobRepository, owner: string) => {
      for (;;) {
        const claimed = await jobs.claim({ owner, kinds: ["test.work"], limit: 3, now: at(0), leaseUntil: at(60_000) });
        if (claimed.length === 0) return;
        for (const job of claimed) {
          taken.push(job.id);
          expect(await jobs.complete(job.id, owner, at(1))).toBe(true);
        }
      }
    };
    await Promise.all([claimer(ctx.jobs, "a1"), claimer(ctx.jobs, "a2"), claimer(ctx.rivalJobs, "b1"), claimer(ctx.rivalJobs, "b2")]);
    const seconds = (performance.now() - started) / 1000;
    expect(taken).toHaveLength(n);
    expect(new Set(taken).size).toBe(n);
    console.log(`${ctx.name}: ${n} jobs claimed and completed by 4 racing claimers in ${(seconds * 1000).toFixed(0)} ms (${Math.round(n / seconds)} jobs/s)`);
  });

  it("workers - two runners on two stores of one database run each of N jobs exactly once", async () => {
    const n = ctx.options.races ?? 40;
    const runs = new Map<number, string[]>();
    const a = instance(ctx);
    const b = instance(ctx, "rival");
    for (const [name, { fk }] of [["a", a], ["b", b]] as const) {
      fk.jobs
        .define("race.work", async (job) => {
          const ran = runs.get(job.job.id) ?? [];
          ran.push(name);
          runs.set(job.job.id, ran);
          await new Promise((resolve) => setTimeout(resolve, 1));
        })
        ._unsafeUnwrap();
    }
    for (let i = 0; i < n; i += 1) (await a.fk.jobs.enqueue("race.work", { i }))._unsafeUnwrap();
    const started = performance.now();
    a.fk.workers.start({ concurrency: 4, pollIntervalMs: 5, recurring: false })._unsafeUnwrap();
    b.fk.workers.start({ concurrency: 4, pollIntervalMs: 5, recurring: false })._unsafeUnwrap();
    try {
      await until(async () => (await a.fk.jobs.list({ state: "succeeded", perPage: 1 }))._unsafeUnwrap().total === n, `${n} jobs succeeded`, 30_000);
    } catch (error) {
      // Say what is left and what the workers logged, or the timeout tells nothing.
      const left = (await a.fk.jobs.list({ perPage: 100 }))._unsafeUnwrap().items.filter((j) => j.state !== "succeeded");
      const logs = [...a.logs, ...b.logs].filter((l) => l.level !== "info").slice(0, 10);
      throw new Error(`${String(error)}; unfinished: ${JSON.stringify(left.slice(0, 5))}; logs: ${JSON.stringify(logs)}`);
    } finally {
      await Promise.all([a.fk.workers.stop(), b.fk.workers.stop()]);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(runs.size).toBe(n);
    expect([...runs.values()].filter((ran) => ran.length !== 1)).toEqual([]);
    const by = (name: string) => [...runs.values()].filter((ran) => ran[0] === name).length;
    console.log(`${ctx.name}: ${n} jobs raced: runner a ran ${by("a")}, runner b ran ${by("b")}, in ${(seconds * 1000).toFixed(0)} ms`);
  });
}
