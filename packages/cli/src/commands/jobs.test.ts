import { createForgekit } from "@forgekit/core";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "../test-support.js";

let sandbox: CliSandbox;
beforeEach(async () => {
  sandbox = cliSandbox();
  expect((await sandbox.run("migrate")).code).toBe(0);
});
afterEach(() => sandbox.cleanup());

/** Queues two jobs of a test kind; the second is claimed by a worker that reported progress. */
async function seedJobs(): Promise<{ queued: number; running: number }> {
  const store = kyselyStore(sqlite(sandbox.database));
  try {
    const fk = createForgekit({ baseUrl: "http://localhost:3000", store });
    fk.jobs.define("test.import", async () => {})._unsafeUnwrap();
    const queued = (await fk.jobs.enqueue("test.import", { repo: "a" }, { runAfter: new Date("2099-01-01T00:00:00Z") }))._unsafeUnwrap();
    const running = (await fk.jobs.enqueue("test.import", { repo: "b" }))._unsafeUnwrap();
    const now = new Date();
    const [claimed] = await store.jobs.claim({ owner: "w", kinds: ["test.import"], limit: 1, now, leaseUntil: new Date(now.getTime() + 60_000) });
    expect(claimed?.id).toBe(running.id);
    await store.jobs.progress(running.id, "w", 3, 10, now);
    return { queued: queued.id, running: running.id };
  } finally {
    await store.close();
  }
}

describe("forgekit jobs", () => {
  it("list and show print state, attempts and progress; cancel stops a queued job at once and asks a running one", async () => {
    const { queued, running } = await seedJobs();
    const list = await sandbox.run("jobs", "list", "--kind", "test.import");
    expect(list.code).toBe(0);
    expect(list.stdout).toBe(
      [`job ${running} test.import running (attempt 1 of 5, 3/10 (30%))`, `job ${queued} test.import queued (attempt 0 of 5, runs after 2099-01-01T00:00:00.000Z)`, ""].join("\n"),
    );
    const shown = await sandbox.run("jobs", "show", String(running), "--json");
    expect(shown.json()).toMatchObject({ id: running, kind: "test.import", state: "running", progress: { done: 3, total: 10 }, payload: { repo: "b" } });
    expect((await sandbox.run("jobs", "cancel", String(queued))).stdout).toMatch(new RegExp(`^job ${queued} test.import cancelled`));
    expect((await sandbox.run("jobs", "cancel", String(running))).stdout).toMatch(/running \(attempt 1 of 5, 3\/10 \(30%\), cancel requested\)/);
    const onlyCancelled = await sandbox.run("jobs", "list", "--state", "cancelled", "--json");
    expect(onlyCancelled.json<{ id: number }[]>().map((j) => j.id)).toEqual([queued]);
  });

  it("answers not found for an unknown job and a usage error for a bad state or id", async () => {
    const missing = await sandbox.run("jobs", "show", "999");
    expect(missing.code).toBe(1);
    expect((await sandbox.run("jobs", "list", "--state", "bogus")).code).toBe(2);
    expect((await sandbox.run("jobs", "cancel", "x")).code).toBe(2);
    expect((await sandbox.run("jobs", "list")).stdout).toBe("no jobs\n");
  });
});
