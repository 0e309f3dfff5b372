import { existsSync } from "node:fs";
import { join } from "node:path";
import { hashedRepositoryPath } from "@forgekit/core";
import { describe, expect, it, onTestFinished } from "vitest";
import { cliSandbox, type CliSandbox } from "../test-support.js";

/**
 * A migrated sandbox with the user ann, for one test only (a test that timed out and runs on
 * cannot write into the next one's), removed when the test ends.
 */
async function annSandbox(): Promise<CliSandbox> {
  const sandbox = cliSandbox();
  onTestFinished(() => sandbox.cleanup());
  expect((await sandbox.run("migrate")).code).toBe(0);
  expect((await sandbox.run("users", "create", "--username", "ann", "--name", "Ann", "--email", "ann@example.com")).code).toBe(0);
  return sandbox;
}

const onShard = (sandbox: CliSandbox, shard: string, id: number) => existsSync(join(sandbox.dir, "repositories", shard, hashedRepositoryPath({ kind: "project", id })));

async function project(sandbox: CliSandbox, name: string): Promise<number> {
  const made = await sandbox.run("--json", "projects", "create", "--namespace", "ann", "--name", name);
  expect(made.code).toBe(0);
  return made.json<{ id: number }>().id;
}

// Real git moves in a CLI run: generous limits for a loaded machine.
describe("forgekit storage moves", { timeout: 300_000 }, () => {
  it("schedule --wait moves every project off the shard, printing moved/total lines (no terminal), then list and show the moves", async () => {
    const sandbox = await annSandbox();
    const ids = [await project(sandbox, "One"), await project(sandbox, "Two")];
    const moved = await sandbox.run("storage", "moves", "schedule", "project", "--from", "default", "--to", "secondary", "--wait");
    expect(moved.code).toBe(0);
    const lines = moved.stdout.trim().split("\n");
    expect(lines).toContain("moved 2/2");
    expect(lines.at(-1)).toMatch(/^job \d+ succeeded: 2 finished, 0 failed, 0 cleanup failed$/);
    for (const id of ids) {
      expect(onShard(sandbox, "secondary", id)).toBe(true);
      expect(onShard(sandbox, "default", id)).toBe(false);
    }
    const list = await sandbox.run("storage", "moves", "list");
    expect(list.stdout.trim().split("\n")).toEqual([`move 2 project ${ids[1]}: default → secondary finished`, `move 1 project ${ids[0]}: default → secondary finished`]);
    const shown = await sandbox.run("--json", "storage", "moves", "show", "project", "1");
    expect(shown.json()).toMatchObject({ id: 1, kind: "project", container_id: ids[0], state: "finished", source_storage_name: "default", destination_storage_name: "secondary", error_message: null });
    expect((await sandbox.run("storage", "moves", "list", "snippet")).stdout).toBe("no snippet storage moves\n");
  });

  it("schedule without --wait queues the bulk job for the workers", async () => {
    const sandbox = await annSandbox();
    await project(sandbox, "One");
    const queued = await sandbox.run("storage", "moves", "schedule", "project", "--from", "default");
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/^scheduled job \d+: every project repository moves off default; workers run it \(follow it with: forgekit jobs show \d+\)\n$/);
    const jobs = await sandbox.run("jobs", "list", "--kind", "storage_moves.bulk");
    expect(jobs.stdout).toMatch(/storage_moves\.bulk queued/);
  });

  it("--concurrency goes into the bulk job's payload; out of 1-64 it is refused with the API's message, not scheduled", async () => {
    const sandbox = await annSandbox();
    await project(sandbox, "One");
    const queued = await sandbox.run("--json", "storage", "moves", "schedule", "project", "--from", "default", "--concurrency", "16");
    expect(queued.code).toBe(0);
    const jobId = queued.json<{ job_id: number }>().job_id;
    const job = await sandbox.run("--json", "jobs", "show", String(jobId));
    expect(job.json()).toMatchObject({ payload: { kind: "project", source: "default", concurrency: 16 } });
    const tooMany = await sandbox.run("storage", "moves", "schedule", "project", "--from", "default", "--concurrency", "65");
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain("must be an integer from 1 to 64");
    expect((await sandbox.run("storage", "moves", "schedule", "project", "--from", "default", "--concurrency", "zero")).code).toBe(2);
  });

  it("unknown shards fail with the API's message; bad usage exits 2; an unknown move is not found", async () => {
    const sandbox = await annSandbox();
    const unknown = await sandbox.run("storage", "moves", "schedule", "project", "--from", "nowhere");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("source_storage_name");
    expect((await sandbox.run("storage", "moves", "schedule", "project")).code).toBe(2);
    expect((await sandbox.run("storage", "moves", "schedule", "repos", "--from", "default")).code).toBe(2);
    expect((await sandbox.run("storage", "moves", "frobnicate")).code).toBe(2);
    expect((await sandbox.run("storage", "moves", "show", "project", "42")).code).toBe(1);
  });

});
