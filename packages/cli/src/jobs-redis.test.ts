/**
 * `FORGEKIT_REDIS_URL`: the CLI's instance keeps and claims background jobs on BullMQ in that Redis
 * (through @forgekit/jobs-bullmq) instead of the database's jobs table. Runs when
 * FORGEKIT_TEST_REDIS_URL is set.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { databaseTarget } from "./database.js";
import { openInstance, type JobsBullmqModule } from "./open-instance.js";

const url = process.env.FORGEKIT_TEST_REDIS_URL;
// The workspace's source of the companion package (a host installs it next to the CLI).
// A variable specifier: the CLI's typecheck stays within its own sources.
const companion: string = fileURLToPath(new URL("../../jobs-bullmq/src/index.ts", import.meta.url));
const loadJobsBullmq = async (): Promise<JobsBullmqModule> => (await import(companion)) as JobsBullmqModule;

/** The few ioredis calls the clean-up makes. */
interface RedisClient {
  keys(pattern: string): Promise<string[]>;
  del(...keys: string[]): Promise<number>;
  quit(): Promise<unknown>;
}

if (url === undefined || url === "") {
  console.log("cli: FORGEKIT_TEST_REDIS_URL is not set — the CLI's BullMQ jobs test skipped");
  describe("CLI jobs on Redis", () => {
    it.skip("FORGEKIT_REDIS_URL (set FORGEKIT_TEST_REDIS_URL to run it)", () => {});
  });
} else {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-cli-redis-"));
  const prefix = `fkcli-${process.pid}-${randomBytes(4).toString("hex")}`;
  afterAll(async () => {
    // ioredis as the companion package resolves it (the CLI does not depend on it).
    const { Redis } = createRequire(new URL("../../jobs-bullmq/package.json", import.meta.url))("ioredis") as { Redis: new (url: string) => RedisClient };
    const admin = new Redis(url);
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("CLI jobs on Redis", () => {
    it("openInstance with redis: jobs go to BullMQ under the prefix, none to the database, and a worker runs them there", async () => {
      const database = databaseTarget(join(dir, "forgekit.db"), dir);
      const opened = await openInstance({ database, baseUrl: "https://forge.example.com", cwd: dir, redis: { url, prefix }, loadJobsBullmq });
      try {
        (await opened.fk.migrate())._unsafeUnwrap();
        const job = (await opened.fk.jobs.enqueue("events.prune"))._unsafeUnwrap();
        expect(await opened.fk.store.jobs.findById(job.id)).toBeNull();
        // Another process on the same Redis and prefix sees it.
        const { bullmqJobs } = await loadJobsBullmq();
        const other = bullmqJobs({ connection: url, prefix });
        try {
          expect((await other.findById(job.id))?.kind).toBe("events.prune");
        } finally {
          await other.close();
        }
        opened.fk.workers.start({ pollIntervalMs: 10, recurring: false })._unsafeUnwrap();
        const deadline = Date.now() + 100_000;
        while ((await opened.fk.jobs.find(job.id))._unsafeUnwrap().state !== "succeeded") {
          if (Date.now() > deadline) throw new Error("the job did not run");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await opened.fk.workers.stop();
        expect((await opened.fk.jobs.find(job.id))._unsafeUnwrap()).toMatchObject({ state: "succeeded", attempts: 1 });
      } finally {
        await opened.close();
      }
    });
  });
}
