/** A bulk job's steps renew the lease at most once per interval, and at once when the job's signal is aborted. */
import { describe, expect, it } from "vitest";
import { renewingAtMostEvery } from "./jobs.js";

describe("renewingAtMostEvery", () => {
  it("renews at the first step, runs the next steps within the interval without a renewal, renews again after it", async () => {
    const controller = new AbortController();
    const renewals: string[] = [];
    const ctx = { signal: controller.signal, step: <T>(name: string, fn: () => Promise<T>) => (renewals.push(name), fn()) };
    // Time the test moves: however slowly the machine runs the steps, only the interval decides.
    let now = 1_000;
    const step = renewingAtMostEvery(ctx, 200, () => now);
    const ran: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      await step(`s${i}`, async () => ran.push(i));
      now += 20;
    }
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(renewals).toEqual(["s0"]);
    now = 1_000 + 200;
    await step("later", async () => undefined);
    expect(renewals).toEqual(["s0", "later"]);
  });

  it("goes through the job's step (which stops the job) as soon as its signal is aborted", async () => {
    const controller = new AbortController();
    const ctx = {
      signal: controller.signal,
      step: <T>(_name: string, fn: () => Promise<T>) => (controller.signal.aborted ? Promise.reject(new Error("job interrupted: cancelled")) : fn()),
    };
    const step = renewingAtMostEvery(ctx, 60_000);
    await step("first", async () => undefined);
    controller.abort();
    await expect(step("second", async () => "ran")).rejects.toThrow(/interrupted/);
  });
});
