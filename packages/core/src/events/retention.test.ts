import { describe, expect, it } from "vitest";
import { activityKit } from "../activity/test-kit.js";
import { must } from "../testing/fixtures.js";
import { retentionCutoff } from "./retention.js";

describe("fk.events.prune", () => {
  it("retentionCutoff - three calendar years before now (UTC); 29 February rolls to 1 March", () => {
    expect(retentionCutoff(new Date("2027-06-15T08:30:00.000Z"))).toEqual(new Date("2024-06-15T08:30:00.000Z"));
    expect(retentionCutoff(new Date("2028-02-29T00:00:00.000Z"))).toEqual(new Date("2025-03-01T00:00:00.000Z"));
  });

  it("removes events older than three years by the injected clock, in batches, and nothing younger", async () => {
    const t = await activityKit();
    const p = t.projects.publicProject;
    const record = (iso: string) => must(t.fk.events.record({ projectId: p.id, authorId: t.users.bob.id, action: "updated", target: { type: "User", id: 1 }, createdAt: new Date(iso) }));
    for (const iso of ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z", "2021-04-30T23:59:59.999Z", "2021-05-01T00:00:00Z", "2021-05-01T12:00:00Z"]) await record(iso);
    t.clock.set("2024-05-01T12:00:00.000Z");
    const result = await must(t.fk.events.prune({ batchSize: 2 }));
    expect(result).toEqual({ cutoff: new Date("2021-05-01T12:00:00.000Z"), deleted: 4, batches: 3, complete: true });
    const left = (await t.feed(p.id)).filter((e) => e.targetType === "User").map((e) => e.createdAt.toISOString());
    expect(left).toEqual(["2021-05-01T12:00:00.000Z"]);
    expect(await must(t.fk.events.prune())).toMatchObject({ deleted: 0, batches: 1, complete: true });
  });

  it("maxBatches bounds one run; the next run continues", async () => {
    const t = await activityKit();
    for (let i = 0; i < 5; i++) {
      await must(t.fk.events.record({ projectId: t.projects.publicProject.id, authorId: t.users.bob.id, action: "updated", target: { type: "User", id: 1 }, createdAt: new Date(Date.UTC(2019, 0, i + 1)) }));
    }
    expect(await must(t.fk.events.prune({ batchSize: 2, maxBatches: 1 }))).toMatchObject({ deleted: 2, batches: 1, complete: false });
    expect(await must(t.fk.events.prune({ batchSize: 2 }))).toMatchObject({ deleted: 3, batches: 2, complete: true });
  });

  it("onBatch hears the running totals after every batch (the CLI's progress line)", async () => {
    const t = await activityKit();
    for (let i = 0; i < 5; i++) {
      await must(t.fk.events.record({ projectId: t.projects.publicProject.id, authorId: t.users.bob.id, action: "updated", target: { type: "User", id: 1 }, createdAt: new Date(Date.UTC(2019, 0, i + 1)) }));
    }
    const heard: { deleted: number; batches: number }[] = [];
    await must(t.fk.events.prune({ batchSize: 2, onBatch: (p) => heard.push(p) }));
    expect(heard).toEqual([
      { deleted: 2, batches: 1 },
      { deleted: 4, batches: 2 },
      { deleted: 5, batches: 3 },
    ]);
  });

  it("bad options → validation error", async () => {
    const t = await activityKit();
    expect((await t.fk.events.prune({ batchSize: 0, maxBatches: 1.5 }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { batch_size: ["must be an integer from 1 to 10000"], max_batches: ["must be a positive integer"] },
    });
  });
});
