/** Jobs port rules (ports/jobs-store.ts): enqueue, claim with lease, renew, complete, fail, release, cancel, progress, list. */
import { expect, it } from "vitest";
import { at, newJob, T0, type JobsSuiteContext } from "./context.js";

const claimAt = (ms: number, owner = "w1", leaseMs = 1000, kinds = ["test.work"], limit = 10) => ({ owner, kinds, limit, now: at(ms), leaseUntil: at(ms + leaseMs) });

export function portTests(ctx: JobsSuiteContext): void {
  it("jobs.enqueue - stores a queued job with its payload and no lease", async () => {
    const job = await ctx.jobs.enqueue(newJob({ payload: '{"a":[1,"é"]}', maxAttempts: 4, runAfter: at(500) }), T0);
    expect(job).toMatchObject({ kind: "test.work", payload: '{"a":[1,"é"]}', state: "queued", attempts: 0, maxAttempts: 4, leaseOwner: null, leaseExpiresAt: null, lastError: null, progressDone: null, cancelRequested: false, uniqueKey: null, finishedAt: null });
    expect(job?.runAfter).toEqual(at(500));
    expect(job?.createdAt).toEqual(T0);
    expect(await ctx.jobs.findById(job?.id ?? 0)).toEqual(job);
    expect(await ctx.jobs.findById(9_999_999)).toBeNull();
  });

  it("jobs.enqueue - a unique key is held while the job is unfinished, and free again once it ends", async () => {
    const first = await ctx.jobs.enqueue(newJob({ uniqueKey: "k" }), T0);
    expect(first).not.toBeNull();
    expect(await ctx.jobs.enqueue(newJob({ uniqueKey: "k" }), T0)).toBeNull();
    expect(await ctx.jobs.enqueue(newJob({ uniqueKey: "other" }), T0)).not.toBeNull();
    const [claimed] = await ctx.jobs.claim({ ...claimAt(0), limit: 1 });
    expect(claimed?.id).toBe(first?.id);
    expect(await ctx.jobs.enqueue(newJob({ uniqueKey: "k" }), T0)).toBeNull();
    expect(await ctx.jobs.complete(first?.id ?? 0, "w1", at(10))).toBe(true);
    expect((await ctx.jobs.findById(first?.id ?? 0))?.uniqueKey).toBeNull();
    expect(await ctx.jobs.enqueue(newJob({ uniqueKey: "k" }), T0)).not.toBeNull();
  });

  it("jobs.enqueue - of racing enqueues with one unique key exactly one gets a row", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? ctx.jobs : ctx.rivalJobs).enqueue(newJob({ uniqueKey: "once" }), T0)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it("jobs.claim - takes due jobs of the given kinds, oldest run-after first, up to the limit, under the lease", async () => {
    // In real time the steps are 5 times longer, so that the check before anything is due does
    // not depend on how fast the enqueues went.
    const x = ctx.real ? 5 : 1;
    const late = await ctx.jobs.enqueue(newJob({ runAfter: at(200 * x) }), T0);
    const early = await ctx.jobs.enqueue(newJob({ runAfter: at(100 * x) }), T0);
    const sameTime = await ctx.jobs.enqueue(newJob({ runAfter: at(100 * x) }), T0);
    await ctx.jobs.enqueue(newJob({ kind: "other.kind", runAfter: at(0) }), T0);
    const future = await ctx.jobs.enqueue(newJob({ runAfter: at(5000 * x) }), T0);
    expect(await ctx.jobs.claim(claimAt(50 * x))).toEqual([]);
    await ctx.pass(300 * x);
    const claimed = await ctx.jobs.claim({ ...claimAt(300 * x), limit: 2 });
    expect(claimed.map((j) => j.id)).toEqual([early?.id, sameTime?.id]);
    for (const job of claimed) {
      expect(job).toMatchObject({ state: "running", attempts: 1, leaseOwner: "w1" });
      expect(job.leaseExpiresAt).toEqual(at(300 * x + 1000));
    }
    expect((await ctx.jobs.claim(claimAt(300 * x))).map((j) => j.id)).toEqual([late?.id]);
    expect(await ctx.jobs.claim(claimAt(300 * x))).toEqual([]);
    expect(await ctx.jobs.claim({ ...claimAt(300 * x), kinds: [] })).toEqual([]);
    expect((await ctx.jobs.findById(future?.id ?? 0))?.state).toBe("queued");
  });

  it("jobs.claim - a job whose lease expired (its worker died) is claimed again, and the old owner can no longer write it", async () => {
    const job = await ctx.jobs.enqueue(newJob(), T0);
    const id = job?.id ?? 0;
    await ctx.jobs.claim(claimAt(0, "dead", 1000));
    expect(await ctx.jobs.claim(claimAt(999, "w2"))).toEqual([]);
    await ctx.pass(1000);
    const [again] = await ctx.jobs.claim(claimAt(1000, "w2"));
    expect(again).toMatchObject({ id, attempts: 2, leaseOwner: "w2", state: "running" });
    expect(await ctx.jobs.complete(id, "dead", at(1001))).toBe(false);
    expect(await ctx.jobs.fail(id, "dead", "late", null, at(1001))).toBe(false);
    expect(await ctx.jobs.extendLease(id, "dead", at(5000), at(1001))).toEqual({ held: false, cancelRequested: false });
    expect(await ctx.jobs.complete(id, "w2", at(1002))).toBe(true);
    const done = await ctx.jobs.findById(id);
    expect(done).toMatchObject({ state: "succeeded", leaseOwner: null, leaseExpiresAt: null });
    expect(done?.finishedAt).toEqual(at(1002));
    expect(await ctx.jobs.complete(id, "w2", at(1003))).toBe(false);
  });

  it("jobs.extendLease - moves the lease end, so the job is not taken over", async () => {
    const job = await ctx.jobs.enqueue(newJob(), T0);
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.extendLease(job?.id ?? 0, "w1", at(3000), at(900))).toEqual({ held: true, cancelRequested: false });
    // Past the first lease's end (1 s from the claim), before the new one's (2.1 s from the renewal).
    await ctx.pass(1000);
    expect(await ctx.jobs.claim(claimAt(2000, "w2"))).toEqual([]);
    expect((await ctx.jobs.findById(job?.id ?? 0))?.leaseExpiresAt).toEqual(at(3000));
  });

  it("jobs.fail - with a retry time the job is queued again until then, its error kept; without one it ends failed", async () => {
    const job = await ctx.jobs.enqueue(newJob(), T0);
    const id = job?.id ?? 0;
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.fail(id, "w1", "Error: boom 1", at(2000), at(10))).toBe(true);
    expect(await ctx.jobs.findById(id)).toMatchObject({ state: "queued", attempts: 1, lastError: "Error: boom 1", leaseOwner: null, runAfter: at(2000) });
    expect(await ctx.jobs.claim(claimAt(1999))).toEqual([]);
    await ctx.pass(1990);
    expect((await ctx.jobs.claim(claimAt(2000)))[0]?.attempts).toBe(2);
    expect(await ctx.jobs.fail(id, "w1", "Error: boom 2", null, at(2010))).toBe(true);
    const failed = await ctx.jobs.findById(id);
    expect(failed).toMatchObject({ state: "failed", attempts: 2, lastError: "Error: boom 2" });
    expect(failed?.finishedAt).toEqual(at(2010));
    expect(await ctx.jobs.claim(claimAt(99_999))).toEqual([]);
  });

  it("jobs.claim - a job whose worker died on its last attempt ends failed instead of running again", async () => {
    const job = await ctx.jobs.enqueue(newJob({ maxAttempts: 1 }), T0);
    await ctx.jobs.claim(claimAt(0, "dead"));
    await ctx.pass(1000);
    expect(await ctx.jobs.claim(claimAt(1000, "w2"))).toEqual([]);
    const failed = await ctx.jobs.findById(job?.id ?? 0);
    expect(failed).toMatchObject({ state: "failed", attempts: 1, leaseOwner: null });
    expect(failed?.lastError).toMatch(/lease expired/);
  });

  it("jobs.complete - with a next job, enqueues it in the same step, passing the unique key on", async () => {
    const job = await ctx.jobs.enqueue(newJob({ uniqueKey: "recurring:x" }), T0);
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.complete(job?.id ?? 0, "w1", at(10), newJob({ uniqueKey: "recurring:x", runAfter: at(60_000) }))).toBe(true);
    const page = await ctx.jobs.list({ kind: "test.work" }, { kind: "offset", page: 1, perPage: 10 });
    expect(page.items.map((j) => [j.state, j.uniqueKey])).toEqual([
      ["queued", "recurring:x"],
      ["succeeded", null],
    ]);
    expect(page.items[0]?.runAfter).toEqual(at(60_000));
    // A lease no longer held enqueues nothing.
    expect(await ctx.jobs.complete(job?.id ?? 0, "w1", at(20), newJob({ uniqueKey: "another" }))).toBe(false);
    expect(await ctx.jobs.enqueue(newJob({ uniqueKey: "another" }), T0)).not.toBeNull();
  });

  it("jobs.release - returns a held job to the queue, due now, without counting the attempt", async () => {
    const job = await ctx.jobs.enqueue(newJob(), T0);
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.release(job?.id ?? 0, "w1", at(50))).toBe(true);
    expect(await ctx.jobs.findById(job?.id ?? 0)).toMatchObject({ state: "queued", attempts: 0, leaseOwner: null, runAfter: at(50) });
    expect(await ctx.jobs.release(job?.id ?? 0, "w1", at(60))).toBe(false);
  });

  it("jobs.cancel - a queued job is cancelled at once; a running one is asked to stop and acknowledges; a finished one stays", async () => {
    const queued = await ctx.jobs.enqueue(newJob({ runAfter: at(10_000), uniqueKey: "q" }), T0);
    const cancelled = await ctx.jobs.cancel(queued?.id ?? 0, at(1));
    expect(cancelled).toMatchObject({ state: "cancelled", uniqueKey: null });
    expect(cancelled?.finishedAt).toEqual(at(1));
    const running = await ctx.jobs.enqueue(newJob(), T0);
    const id = running?.id ?? 0;
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.cancel(id, at(2))).toMatchObject({ state: "running", cancelRequested: true });
    expect(await ctx.jobs.extendLease(id, "w1", at(3000), at(3))).toEqual({ held: true, cancelRequested: true });
    expect(await ctx.jobs.progress(id, "w1", 1, 2, at(3))).toEqual({ held: true, cancelRequested: true });
    expect(await ctx.jobs.acknowledgeCancel(id, "w2", at(4))).toBe(false);
    expect(await ctx.jobs.acknowledgeCancel(id, "w1", at(4))).toBe(true);
    expect(await ctx.jobs.findById(id)).toMatchObject({ state: "cancelled", leaseOwner: null });
    expect(await ctx.jobs.cancel(id, at(5))).toMatchObject({ state: "cancelled" });
    expect(await ctx.jobs.cancel(9_999_999, at(5))).toBeNull();
  });

  it("jobs.progress - records counts done / total on a held job only", async () => {
    const job = await ctx.jobs.enqueue(newJob(), T0);
    const id = job?.id ?? 0;
    await ctx.jobs.claim(claimAt(0));
    expect(await ctx.jobs.progress(id, "w1", 3, 10, at(1))).toEqual({ held: true, cancelRequested: false });
    expect(await ctx.jobs.findById(id)).toMatchObject({ progressDone: 3, progressTotal: 10 });
    expect(await ctx.jobs.progress(id, "w1", 4, null, at(2))).toEqual({ held: true, cancelRequested: false });
    expect(await ctx.jobs.findById(id)).toMatchObject({ progressDone: 4, progressTotal: null });
    expect(await ctx.jobs.progress(id, "other", 9, 10, at(3))).toEqual({ held: false, cancelRequested: false });
    expect((await ctx.jobs.findById(id))?.progressDone).toBe(4);
  });

  it("jobs.list - newest first, filtered by kind and state, paged", async () => {
    const a = await ctx.jobs.enqueue(newJob(), T0);
    const b = await ctx.jobs.enqueue(newJob({ kind: "other.kind" }), T0);
    const c = await ctx.jobs.enqueue(newJob(), T0);
    await ctx.jobs.cancel(c?.id ?? 0, at(1));
    const page = (n: number) => ({ kind: "offset" as const, page: n, perPage: 2 });
    const first = await ctx.jobs.list({}, page(1));
    expect(first.items.map((j) => j.id)).toEqual([c?.id, b?.id]);
    expect(first).toMatchObject({ total: 3, hasNext: true });
    expect((await ctx.jobs.list({}, page(2))).items.map((j) => j.id)).toEqual([a?.id]);
    expect((await ctx.jobs.list({ kind: "test.work", states: ["queued"] }, page(1))).items.map((j) => j.id)).toEqual([a?.id]);
    expect((await ctx.jobs.list({ states: [] }, page(1))).items).toEqual([]);
  });
}
