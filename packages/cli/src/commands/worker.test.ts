import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createForgekit, type Job } from "@forgekit/core";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "../test-support.js";

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = cliSandbox();
  expect((await sandbox.run("migrate")).code).toBe(0);
});
afterEach(() => sandbox.cleanup());

/** The jobs of a kind in the sandbox database, newest first. */
async function jobsOf(kind: string): Promise<Job[]> {
  const store = kyselyStore(sqlite(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store });
    return (await fk.jobs.list({ kind }))._unsafeUnwrap().items;
  } finally {
    await store.close();
  }
}

describe("forgekit worker", () => {
  it("--drain runs the due recurring maintenance jobs, prints each, queues their next runs and exits", async () => {
    const run = await sandbox.run("worker", "--drain", "--poll-interval", "10", "--concurrency", "2");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^worker \S+ started: concurrency 2, polling every 10 ms, until nothing is due$/m);
    expect(run.stdout).toMatch(/^job \d+ events\.prune \(attempt 1 of 3\) succeeded$/m);
    expect(run.stdout).toMatch(/^job \d+ oauth\.purge_expired \(attempt 1 of 3\) succeeded$/m);
    expect(run.stdout).toMatch(/^nothing is due: stopping$/m);
    expect(run.stdout).toMatch(/^worker stopped after 2 attempts: 2 succeeded, 0 retry, 0 failed, 0 cancelled, 0 released, 0 lost$/m);
    expect((await jobsOf("events.prune")).map((j) => j.state)).toEqual(["queued", "succeeded"]);
    // The next occurrences are a day and an hour away: a second worker finds nothing to do.
    const again = await sandbox.run("worker", "--drain", "--poll-interval", "10", "--json");
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ event: "stopped", attempts: 0 });
    expect(again.stderr.split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(["started", "stopping"]);
  });

  it("refuses bad options: a usage error for values, a validation error for an unknown kind", async () => {
    const zero = await sandbox.run("worker", "--concurrency", "0");
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--concurrency must be a positive integer, got "0"/);
    expect((await sandbox.run("worker", "--concurrency", "101")).code).toBe(2);
    const unknown = await sandbox.run("worker", "--kind", "nope", "--drain");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/kinds/);
    expect(await jobsOf("events.prune")).toEqual([]);
  });

  it("runs as its own process until SIGTERM, then stops gracefully with exit code 0", async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const tsx = createRequire(import.meta.url).resolve("tsx");
    const child = spawn(process.execPath, ["--conditions=@forgekit/source", "--import", tsx, join(here, "..", "bin.ts"), "--database", sandbox.database, "worker", "--poll-interval", "20"], {
      cwd: sandbox.dir,
      env: { ...process.env, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 180_000;
    while (!/oauth\.purge_expired .* succeeded/.test(stdout) || !/events\.prune .* succeeded/.test(stdout)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`worker did not run the jobs: ${stdout} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^SIGTERM: stopping \(running jobs finish or return to the queue\)$/m);
    expect(stdout).toMatch(/^worker stopped after 2 attempts: 2 succeeded/m);
    expect(stderr).toBe("");
  }, 240_000);
});
