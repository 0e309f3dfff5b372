/**
 * The delivery job's per-hook order under concurrency (job.ts): one holder of a hook's sending
 * lease sends its deliveries oldest first, so several workers at once neither reorder nor repeat
 * them, and a delivery waiting behind an earlier one spends no attempt.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Project } from "../accounts/types.js";
import { createTestForgekit, must, type TestForgekit } from "../testing/fixtures.js";
import { startHookReceiver, type HookReceiver } from "../testing/hook-receiver.js";
import { until } from "../testing/jobs-conformance/context.js";
import { WEBHOOK_DELIVERY_JOB } from "./fanout.js";

describe("webhooks.deliver jobs", () => {
  let t: TestForgekit;
  let receiver: HookReceiver;
  let project: Project;

  beforeEach(async () => {
    t = await createTestForgekit({ imports: { allowLocalNetwork: true } });
    receiver = await startHookReceiver();
    project = await t.createProject({ namespaceId: t.groups.grp.id, path: "hooked", name: "Hooked", visibility: "private", creatorId: t.users.alice.id });
  });
  afterEach(async () => {
    await t.fk.workers.stop();
    await receiver.close();
  });

  const addHooks = async (count: number, to: HookReceiver = receiver) => {
    for (let i = 0; i < count; i++) await must(t.fk.webHooks.add({ scope: "project", projectId: project.id }, { url: `${to.url}-${i}`, events: { push_events: true } }));
  };
  const push = (n: number) => must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: `b-${n}`, commitFrom: "a".repeat(40), commitTo: "b".repeat(40), commitCount: 1 }));
  /** The refs each hook received, in arrival order. */
  const receivedBy = (from: HookReceiver = receiver) => {
    const by = new Map<string, string[]>();
    for (const r of from.received) {
      const list = by.get(r.path) ?? [];
      list.push((r.body as { ref: string }).ref);
      by.set(r.path, list);
    }
    return by;
  };
  const deliveryJobs = async () => (await must(t.fk.jobs.list({ kind: WEBHOOK_DELIVERY_JOB, perPage: 100 }))).items;

  it("a burst sent by 8 workers at once reaches each hook in order, each event once, and no job spends an attempt waiting", async () => {
    await addHooks(3);
    for (let n = 1; n <= 30; n++) await push(n);
    expect(t.fk.workers.start({ concurrency: 8, pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
    await until(() => receiver.received.length >= 90, "90 deliveries");
    const expected = Array.from({ length: 30 }, (_, i) => `refs/heads/b-${i + 1}`);
    expect([...receivedBy().values()]).toEqual([expected, expected, expected]);
    await until(async () => (await deliveryJobs()).every((job) => job.state === "succeeded"), "every delivery job ended");
    const jobs = await deliveryJobs();
    expect(jobs).toHaveLength(90);
    expect(jobs.filter((job) => job.attempts !== 1 || job.lastError !== null)).toEqual([]);
  });

  it("while one delivery is retried, the later ones of its hook wait behind it without attempts of their own; another hook goes on", async () => {
    const down = await startHookReceiver();
    try {
      down.status = 503;
      await addHooks(1, down);
      await addHooks(1);
      expect(t.fk.workers.start({ concurrency: 4, pollIntervalMs: 10, recurring: false }).isOk()).toBe(true);
      for (let n = 1; n <= 3; n++) await push(n);
      const refs = ["refs/heads/b-1", "refs/heads/b-2", "refs/heads/b-3"];
      await until(() => down.received.length >= 1 && receiver.received.length >= 3, "a failed attempt, and the other hook's three");
      expect(receivedBy().get("/hook-0")).toEqual(refs);
      down.status = 200;
      // The failed attempt's retry waits on the instance's clock: move it on until all are through.
      await until(
        async () => {
          t.clock.advance(2_000);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return (receivedBy(down).get("/hook-0") ?? []).includes("refs/heads/b-3");
        },
        "the waiting hook's deliveries",
      );
      expect([...new Set(receivedBy(down).get("/hook-0"))]).toEqual(refs);
      await until(async () => (await deliveryJobs()).every((job) => job.state === "succeeded"), "every delivery job ended");
      // Only the job that held the failing hook's lease was retried; the rest ended at their first attempt.
      const retried = (await deliveryJobs()).filter((job) => job.attempts > 1);
      expect(retried.map((job) => job.lastError)).toEqual(["Error: the receiver answered 503"]);
    } finally {
      await down.close();
    }
  });
});
