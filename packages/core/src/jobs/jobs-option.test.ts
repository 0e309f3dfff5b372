/** `createForgekit({ jobs })`: another jobs repository than the store's (e.g. BullMQ on Redis). */
import { describe, expect, it } from "vitest";
import { createForgekit, ForgekitConfigError } from "../forgekit.js";
import { memoryStore } from "../memory-store/index.js";

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
