/** `createForgekit({ jobs })`: another jobs repository than the store's (e.g. BullMQ on Redis). */
import { describe, expect, it } from "vitest";
import { createForgekit, ForgekitConfigError } from "../forgekit.js";
import { memoryStore } from "../memory-store/index.js";
import { until } from "../testing/jobs-conformance/context.js";

const baseUrl = "https://forge.example.com";

describe("createForgekit - jobs option", () => {
  it("fk.jobs and fk.workers use the given repository, not the store's", async () => {
    const store = memoryStore();
    const elsewhere = memoryStore().jobs;
    const fk = createForgekit({ baseUrl, store, jobs: elsewhere });
    fk.jobs.define("test.work", async () => {})._unsafeUnwrap();
    const job = (await fk.jobs.enqueue("test.work"))._unsafeUnwrap();
    expect((await elsewhere.findById(job.id))?.kind).toBe("test.work");
    expect(await store.jobs.findById(job.id)).toBeNull();
  });

  it("without it the store's jobs are used", async () => {
    const store = memoryStore();
    const fk = createForgekit({ baseUrl, store });
    fk.jobs.define("test.work", async () => {})._unsafeUnwrap();
    const job = (await fk.jobs.enqueue("test.work"))._unsafeUnwrap();
    expect((await store.jobs.findById(job.id))?.kind).toBe("test.work");
  });

  it("refuses something that is not a JobRepository, or one that does not say its clock", () => {
    const store = memoryStore();
    expect(() => createForgekit({ baseUrl, store, jobs: {} as never })).toThrow(ForgekitConfigError);
    expect(() => createForgekit({ baseUrl, store, jobs: {} as never })).toThrow(/jobs must be a JobRepository/);
    const noClock = { ...memoryStore().jobs, clock: undefined };
    expect(() => createForgekit({ baseUrl, store, jobs: noClock as never })).toThrow(/jobs must say its clock/);
  });
});

describe("createForgekit - jobs option: the store's table as an outbox", () => {
  it("fk.workers also run the jobs written to the store's table in a transaction (as webhook deliveries are)", async () => {
    const store = memoryStore();
    const elsewhere = memoryStore().jobs;
    const fk = createForgekit({ baseUrl, store, jobs: elsewhere });
    const ran: string[] = [];
    fk.jobs.define("test.work", async (ctx) => void ran.push(String(ctx.payload)))._unsafeUnwrap();
    const now = new Date();
    await store.transaction(async (tx) => {
      await tx.jobs.enqueue({ kind: "test.work", payload: JSON.stringify("from the outbox"), maxAttempts: 3, runAfter: now }, now);
    });
    (await fk.jobs.enqueue("test.work", "apart"))._unsafeUnwrap();
    let idle = 0;
    fk.workers.start({ pollIntervalMs: 5, recurring: false, onIdle: () => void (idle += 1) })._unsafeUnwrap();
    try {
      await until(() => ran.length === 2 && idle > 0, "both jobs ran and both pools went idle");
    } finally {
      await fk.workers.stop();
    }
    expect(ran.sort()).toEqual(["apart", "from the outbox"]);
    expect(fk.workers.running).toBe(false);
  });
});
