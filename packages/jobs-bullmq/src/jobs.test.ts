/**
 * The jobs conformance suite (core testing/jobs-conformance) on BullMQ over the real Redis of
 * FORGEKIT_TEST_REDIS_URL: each test gets its own key prefix and two repositories with their own
 * connections (two processes on one queue); its keys are deleted afterwards. The store beside them
 * is the memory store (only the recurring maintenance jobs touch it).
 */
import { memoryStore, runJobsConformance } from "@forgekit/core/testing";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { bullmqJobs } from "./index.js";
import { ENQUEUE } from "./scripts.js";

const url = process.env.FORGEKIT_TEST_REDIS_URL;
const run = `fktest-${process.pid}-${randomBytes(4).toString("hex")}`;

/** Deletes every key under `prefix`. */
async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== "0");
  return deleted;
}

if (url === undefined || url === "") {
  console.log("jobs-bullmq: FORGEKIT_TEST_REDIS_URL is not set — BullMQ jobs conformance skipped");
  describe("BullMQ", () => {
    it.skip("jobs conformance on Redis (set FORGEKIT_TEST_REDIS_URL to run it)", () => {});
  });
} else {
  const admin = new Redis(url, { maxRetriesPerRequest: 3 });
  let tests = 0;
  afterAll(async () => {
    // Nothing of this run is left behind (each test deleted its own keys already).
    expect(await deleteKeys(admin, run)).toBe(0);
    await admin.quit();
  });

  describe("BullMQ", () => {
    runJobsConformance(
      "bullmqJobs",
      async () => {
        tests += 1;
        const prefix = `${run}-${tests}`;
        const store = memoryStore();
        const jobs = bullmqJobs({ connection: url, prefix });
        const rival = bullmqJobs({ connection: url, prefix });
        return {
          store,
          rival: store,
          jobs: { store: jobs, rival },
          close: async () => {
            await Promise.all([jobs.close(), rival.close()]);
            await deleteKeys(admin, prefix);
          },
        };
      },
      // BullMQ frees a dead worker's job when its lock (the lease) expires: its stalled-job check
      // looks at locks, not at a registry of live workers.
      { races: 100, workerRegistry: false },
    );

    it("bullmqJobs - a record whose BullMQ job was never added (its process died in between) is added by a later claim", async () => {
      const prefix = `${run}-repair`;
      const jobs = bullmqJobs({ connection: url, prefix, repairAfterMs: 50 });
      try {
        // What enqueue writes first, without the second step (Queue#add).
        const now = new Date("2030-01-01T00:00:00.000Z");
        const id = Number(await admin.eval(ENQUEUE, 0, `${prefix}:jobs`, "test.work", "{}", "3", String(now.getTime()), "", String(now.getTime()), "0"));
        const claim = () => jobs.claim({ owner: "w1", kinds: ["test.work"], limit: 5, now, leaseUntil: new Date(now.getTime() + 5000) });
        expect(await claim()).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 120));
        expect((await claim()).map((j) => [j.id, j.state, j.attempts])).toEqual([[id, "running", 1]]);
        expect(await jobs.complete(id, "w1", now)).toBe(true);
        // Finished jobs leave BullMQ; their records stay.
        const queue = new Queue("test.work", { connection: admin, prefix: `${prefix}:bull` });
        const counts = await queue.getJobCounts("wait", "active", "delayed", "completed", "failed");
        await queue.close();
        expect(counts).toEqual({ wait: 0, active: 0, delayed: 0, completed: 0, failed: 0 });
        expect((await jobs.findById(id))?.state).toBe("succeeded");
      } finally {
        await jobs.close();
        await deleteKeys(admin, prefix);
      }
    });

    it("bullmqJobs - refuses a prefix with ':' or spaces, and close() is idempotent", async () => {
      expect(() => bullmqJobs({ connection: url, prefix: "a:b" })).toThrow(/prefix/);
      expect(() => bullmqJobs({ connection: url, prefix: "a b" })).toThrow(/prefix/);
      const jobs = bullmqJobs({ connection: url, prefix: `${run}-close` });
      await jobs.close();
      await jobs.close();
    });

    it("bullmqJobs - a host's ioredis client is used as it is and stays open after close()", async () => {
      const prefix = `${run}-client`;
      const client = new Redis(url, { maxRetriesPerRequest: null });
      const jobs = bullmqJobs({ connection: client, prefix });
      try {
        const job = await jobs.enqueue({ kind: "test.work", payload: "{}", maxAttempts: 1, runAfter: new Date(0) }, new Date(0));
        expect(job?.state).toBe("queued");
        await jobs.close();
        expect(await client.exists(`${prefix}:jobs:job:${job?.id ?? 0}`)).toBe(1);
      } finally {
        await deleteKeys(client, prefix);
        await client.quit();
      }
    });
  });
}
