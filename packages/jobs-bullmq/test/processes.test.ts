/**
 * BullMQ jobs across real processes (FORGEKIT_TEST_REDIS_URL): two runner processes on one queue
 * run each job exactly once, and a job whose worker process is killed is taken over by another
 * once its lease (the BullMQ lock) expires.
 */
import { createForgekit, type Forgekit } from "@forgekit/core";
import { memoryStore } from "@forgekit/core/testing";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { bullmqJobs, type BullmqJobRepository } from "../src/index.js";

const url = process.env.FORGEKIT_TEST_REDIS_URL;
const here = dirname(fileURLToPath(import.meta.url));
const run = `fkproc-${process.pid}-${randomBytes(4).toString("hex")}`;

interface Child {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
  started: Promise<void>;
  exited: Promise<number | null>;
}

/** Starts runner-child.ts (through tsx, on the workspace sources). */
function runner(prefix: string, name: string, leaseMs: number): Child {
  const child = spawn(process.execPath, ["--conditions=@forgekit/source", "--import", "tsx", join(here, "runner-child.ts"), url ?? "", prefix, name, String(leaseMs)], { cwd: here, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes("started\n")) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`runner ${name} exited before starting: ${out}`));
      }
    }, 10);
  });
  return { process: child, output: () => out, started, exited };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

/** A forgekit instance in this process on the queue under `prefix`. */
function local(prefix: string): { fk: Forgekit; jobs: BullmqJobRepository } {
  const jobs = bullmqJobs({ connection: url ?? "", prefix });
  const fk = createForgekit({ baseUrl: "https://forge.example.com", store: memoryStore(), jobs, logger: { log: () => {} } });
  return { fk, jobs };
}

if (url === undefined || url === "") {
  console.log("jobs-bullmq: FORGEKIT_TEST_REDIS_URL is not set — BullMQ process tests skipped");
  describe("BullMQ across processes", () => {
    it.skip("runner processes on Redis (set FORGEKIT_TEST_REDIS_URL to run them)", () => {});
  });
} else {
  const admin = new Redis(url);
  afterAll(async () => {
    await deleteKeys(admin, run);
    await admin.quit();
  });

  describe("BullMQ across processes", () => {
    it("workers - two runner processes on one queue run each of N jobs exactly once", async () => {
      const prefix = `${run}-race`;
      const n = 300;
      const { fk, jobs } = local(prefix);
      const a = runner(prefix, "a", 30_000);
      const b = runner(prefix, "b", 30_000);
      try {
        fk.jobs.define("race.work", async () => {})._unsafeUnwrap();
        await Promise.all([a.started, b.started]);
        const started = performance.now();
        for (let i = 0; i < n; i += 1) (await fk.jobs.enqueue("race.work", { i }))._unsafeUnwrap();
        await until(async () => (await fk.jobs.list({ state: "succeeded", perPage: 1 }))._unsafeUnwrap().total === n, `${n} jobs to succeed`);
        const ms = performance.now() - started;
        a.process.kill("SIGTERM");
        b.process.kill("SIGTERM");
        expect(await a.exited).toBe(0);
        expect(await b.exited).toBe(0);
        const runs = await admin.lrange(`${prefix}:runs`, 0, -1);
        const ids = runs.map((line) => line.split(" ")[0]);
        expect(runs).toHaveLength(n);
        expect(new Set(ids).size).toBe(n);
        const by = (name: string) => runs.filter((line) => line.endsWith(` ${name}`)).length;
        expect(by("a")).toBeGreaterThan(0);
        expect(by("b")).toBeGreaterThan(0);
        console.log(`bullmqJobs: ${n} jobs enqueued and run by 2 processes (a ${by("a")}, b ${by("b")}) in ${ms.toFixed(0)} ms`);
      } finally {
        a.process.kill("SIGKILL");
        b.process.kill("SIGKILL");
        await jobs.close();
      }
    }, 240_000);

    it("workers - a job whose worker process was killed is taken over by another process once its lease expires", async () => {
      const prefix = `${run}-dead`;
      const { fk, jobs } = local(prefix);
      const child = runner(prefix, "dying", 1000);
      const attempts: number[] = [];
      try {
        fk.jobs.define("race.hang", async (job) => void attempts.push(job.attempt))._unsafeUnwrap();
        await child.started;
        const { id } = (await fk.jobs.enqueue("race.hang"))._unsafeUnwrap();
        await until(async () => (await admin.llen(`${prefix}:runs`)) === 1, "the child to start the job");
        child.process.kill("SIGKILL");
        await child.exited;
        const killedAt = performance.now();
        fk.workers.start({ pollIntervalMs: 10, leaseMs: 1000, recurring: false })._unsafeUnwrap();
        // The lease still holds for a while: nobody runs it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(attempts).toEqual([]);
        expect((await fk.jobs.find(id))._unsafeUnwrap().state).toBe("running");
        await until(async () => (await fk.jobs.find(id))._unsafeUnwrap().state === "succeeded", "the job to be taken over", 10_000);
        const tookMs = performance.now() - killedAt;
        expect(attempts).toEqual([2]);
        console.log(`bullmqJobs: a killed worker's job (1 s lease) was taken over and finished ${tookMs.toFixed(0)} ms after the kill`);
      } finally {
        child.process.kill("SIGKILL");
        await fk.workers.stop();
        await jobs.close();
      }
    }, 240_000);
  });
}
