/**
 * Webhook deliveries with jobs on BullMQ (issue 20): a delivery is queued in the transaction of its
 * change, so it lands in the store's jobs table (an outbox no BullMQ worker reads), and `fk.workers`
 * drain that table beside the BullMQ queues — the push reaches a real receiver on 127.0.0.1.
 */
import { createTestForgekit, must, startHookReceiver } from "@forgekit/core/testing";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { bullmqJobs } from "./index.js";

const url = process.env.FORGEKIT_TEST_REDIS_URL;

/** Waits for `check` (every 20 ms, at most 60 s). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(url === undefined || url === "")("webhook deliveries with jobs on BullMQ", () => {
  it("a push reaches the hook's receiver: fk.workers drain the store's outbox table beside BullMQ", async () => {
    const prefix = `fktest-hooks-${process.pid}-${randomBytes(4).toString("hex")}`;
    const jobs = bullmqJobs({ connection: url ?? "", prefix });
    const receiver = await startHookReceiver();
    const t = await createTestForgekit({ jobs, imports: { allowLocalNetwork: true } });
    const admin = new Redis(url ?? "", { maxRetriesPerRequest: 3 });
    try {
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "hooked-on-redis", name: "Hooked", visibility: "private", creatorId: t.users.alice.id });
      await must(t.fk.webHooks.add({ scope: "project", projectId: project.id }, { url: receiver.url, token: "redis-secret", events: { push_events: true } }));
      await must(t.fk.pushes.record({ projectId: project.id, authorId: t.users.alice.id, ref: "main", commitFrom: "a".repeat(40), commitTo: "b".repeat(40), commitCount: 1 }));
      expect(t.fk.workers.start({ pollIntervalMs: 20, recurring: false }).isOk()).toBe(true);
      await until(() => receiver.received.length >= 1, "the push delivery");
      const [got] = receiver.received;
      expect(got?.headers["x-gitlab-event"]).toBe("Push Hook");
      expect(got?.headers["x-gitlab-token"]).toBe("redis-secret");
      expect(got?.body).toMatchObject({ object_kind: "push", ref: "refs/heads/main", project_id: project.id });
      // The delivery job ran from the store's table; nothing of it went to Redis.
      expect(await t.store.jobs.list({ kind: "webhooks.deliver" }, { kind: "offset", page: 1, perPage: 10 })).toMatchObject({ items: [{ state: "succeeded" }] });
    } finally {
      await t.fk.workers.stop();
      await receiver.close();
      await jobs.close();
      let cursor = "0";
      do {
        const [next, keys] = await admin.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
        cursor = next;
        if (keys.length > 0) await admin.del(...keys);
      } while (cursor !== "0");
      await admin.quit();
    }
  });
});
