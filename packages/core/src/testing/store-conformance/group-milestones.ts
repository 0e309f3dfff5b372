/** Conformance: `activity.groupMilestones`. */
import { expect, it } from "vitest";
import { T0, at, makeGroup, type SuiteContext } from "./context.js";

const page = { kind: "offset", page: 1, perPage: 20 } as const;

export function groupMilestoneTests(ctx: SuiteContext): void {
  it("groupMilestones.create - iids count from 1 per group; a taken title is null", async () => {
    const a = await makeGroup(ctx.store);
    const b = await makeGroup(ctx.store);
    const repo = ctx.store.activity.groupMilestones;
    const first = await repo.create({ groupId: a.id, title: "v1", description: "d", startDate: "2026-01-05", dueDate: "2026-02-01" }, T0);
    expect(first).toEqual({ id: first?.id, groupId: a.id, iid: 1, title: "v1", description: "d", state: "active", startDate: "2026-01-05", dueDate: "2026-02-01", createdAt: T0, updatedAt: T0 });
    expect((await repo.create({ groupId: a.id, title: "v2", description: "", startDate: null, dueDate: null }, T0))?.iid).toBe(2);
    expect((await repo.create({ groupId: b.id, title: "v1", description: "", startDate: null, dueDate: null }, T0))?.iid).toBe(1);
    expect(await repo.create({ groupId: a.id, title: "v1", description: "", startDate: null, dueDate: null }, T0)).toBeNull();
    expect(await repo.findById(first!.id)).toEqual(first);
    expect(await repo.findById(first!.id + 1000)).toBeNull();
  });

  it("groupMilestones.update / list / remove - patch (dates too), taken title null, filters newest iid first", async () => {
    const group = await makeGroup(ctx.store);
    const repo = ctx.store.activity.groupMilestones;
    const one = (await repo.create({ groupId: group.id, title: "one", description: "First release", startDate: null, dueDate: "2026-03-01" }, T0))!;
    const two = (await repo.create({ groupId: group.id, title: "two", description: "", startDate: null, dueDate: null }, T0))!;
    expect(await repo.update(one.id, { state: "closed", description: "done", updatedAt: at(1) })).toEqual({ ...one, state: "closed", description: "done", updatedAt: at(1) });
    expect(await repo.update(one.id, { startDate: "2026-02-01", dueDate: null })).toEqual({ ...one, state: "closed", description: "done", startDate: "2026-02-01", dueDate: null, updatedAt: at(1) });
    expect(await repo.update(two.id, { title: "one" })).toBeNull();
    expect(await repo.update(two.id + 1000, { title: "x" })).toBeNull();
    const titles = async (filter: Omit<Parameters<typeof repo.list>[0], "groupId">) => (await repo.list({ groupId: group.id, ...filter }, page)).items.map((m) => m.title);
    expect(await titles({})).toEqual(["two", "one"]);
    expect(await titles({ state: "active" })).toEqual(["two"]);
    expect(await titles({ search: "DON" })).toEqual(["one"]);
    expect(await titles({ title: "two", iids: [2] })).toEqual(["two"]);
    expect(await repo.remove(two.id)).toBe(true);
    expect(await repo.remove(two.id)).toBe(false);
    expect(await titles({})).toEqual(["one"]);
  });
}
