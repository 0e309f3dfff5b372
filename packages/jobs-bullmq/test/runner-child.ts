/**
 * A second process for the BullMQ tests: a forgekit instance whose workers run on the BullMQ queue
 * under `prefix`. Kinds: `race.work` records each run in the Redis list `<prefix>:runs` as
 * `<job id> <runner name>`; `race.hang` records its start there and never finishes (the test then
 * kills this process with SIGKILL, as a worker that dies). Prints `started`, stops gracefully on
 * SIGTERM and prints `stopped`.
 * Usage: runner-child.ts <redis url> <prefix> <runner name> <lease ms>
 */
import { createForgekit } from "@forgekit/core";
import { memoryStore } from "@forgekit/core/testing";
import { Redis } from "ioredis";
import { bullmqJobs } from "../src/index.js";

const [url, prefix, name, lease] = process.argv.slice(2);
if (url === undefined || prefix === undefined || name === undefined || lease === undefined) throw new Error("usage: runner-child.ts <redis url> <prefix> <runner name> <lease ms>");
const runs = new Redis(url);
const jobs = bullmqJobs({ connection: url, prefix });
const fk = createForgekit({ baseUrl: "https://forge.example.com", store: memoryStore(), jobs, logger: { log: () => {} } });
fk.jobs
  .define("race.work", async (job) => {
    await runs.rpush(`${prefix}:runs`, `${job.job.id} ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  })
  ._unsafeUnwrap();
fk.jobs
  .define("race.hang", async (job) => {
    await runs.rpush(`${prefix}:runs`, `${job.job.id} ${name}`);
    await new Promise(() => {});
  })
  ._unsafeUnwrap();
fk.workers.start({ concurrency: 4, pollIntervalMs: 5, leaseMs: Number(lease), heartbeatMs: Math.floor(Number(lease) / 4), recurring: false })._unsafeUnwrap();
process.stdout.write("started\n");
process.once("SIGTERM", () => {
  void (async () => {
    await fk.workers.stop({ timeoutMs: 5000 });
    await jobs.close();
    await runs.quit();
    process.stdout.write("stopped\n");
    process.exit(0);
  })();
});
