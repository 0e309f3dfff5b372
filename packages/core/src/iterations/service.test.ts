import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { isCalendarDate } from "./service.js";
import { iterationState, statesOf } from "./types.js";

describe("iteration states", () => {
  it("upcoming before the start date, current from start through due date, closed after", () => {
    const sprint = { startDate: "2024-05-01", dueDate: "2024-05-14" };
    expect(["2024-04-30", "2024-05-01", "2024-05-14", "2024-05-15"].map((day) => iterationState(sprint, day))).toEqual(["upcoming", "current", "current", "closed"]);
  });

  it("filters: opened = upcoming + current; started = current; all = every state", () => {
    expect(statesOf("opened")).toEqual(["upcoming", "current"]);
    expect(statesOf("started")).toEqual(["current"]);
    expect(statesOf("all")).toEqual(["upcoming", "current", "closed"]);
  });

  it("calendar dates", () => {
    expect(["2024-02-29", "2023-02-29", "2024-13-01", "2024-5-01", "x"].map(isCalendarDate)).toEqual([true, false, false, false, false]);
  });
});

describe("iterations service", () => {
  it("creates iterations with iids per group and sequences by start date", async () => {
    const { fk, groups } = await createTestForgekit();
    const second = await must(fk.iterations.create({ groupId: groups.grp.id, title: " Sprint 2 ", startDate: "2024-05-15", dueDate: "2024-05-28" }));
    const first = await must(fk.iterations.create({ groupId: groups.grp.id, title: "Sprint 1", description: "kick-off", startDate: "2024-05-01", dueDate: "2024-05-14" }));
    expect(second).toMatchObject({ iid: 1, sequence: 1, title: "Sprint 2", description: "" });
    expect(first).toMatchObject({ iid: 2, sequence: 1, description: "kick-off", createdAt: new Date("2024-05-01T12:00:00.000Z") });
    expect((await must(fk.iterations.findById(second.id))).sequence).toBe(2);
    expect((await fk.iterations.findById(99999))._unsafeUnwrapErr()).toEqual({ code: "record_not_found" });
  });

  it("validation errors in the reference's words, all at once", async () => {
    const { fk, groups } = await createTestForgekit();
    const create = (input: Partial<Parameters<typeof fk.iterations.create>[0]>) =>
      fk.iterations.create({ groupId: groups.grp.id, title: "T", startDate: "2024-06-01", dueDate: "2024-06-10", ...input }).then((r) => r._unsafeUnwrapErr());
    expect(await create({ title: "  ", startDate: "", dueDate: "2024-02-30" })).toEqual({
      code: "validation",
      messages: { title: ["can't be blank"], start_date: ["can't be blank"], due_date: ["is invalid"] },
    });
    expect(await create({ title: "x".repeat(256) })).toEqual({ code: "validation", messages: { title: ["is too long (maximum is 255 characters)"] } });
    expect(await create({ startDate: "2024-06-10", dueDate: "2024-06-09" })).toEqual({ code: "validation", messages: { due_date: ["must be greater than start date"] } });
    expect(await create({ startDate: "2524-05-02", dueDate: "2524-05-03" })).toEqual({
      code: "validation",
      messages: { start_date: ["cannot be more than 500 years in the future"], due_date: ["cannot be more than 500 years in the future"] },
    });
    expect((await fk.iterations.create({ groupId: groups.grp.id, title: "One day", startDate: "2524-05-01", dueDate: "2524-05-01" })).isOk()).toBe(true);
  });

  it("overlapping dates and repeated titles are refused within a group only", async () => {
    const { fk, groups } = await createTestForgekit();
    await must(fk.iterations.create({ groupId: groups.grp.id, title: "Base", startDate: "2024-06-01", dueDate: "2024-06-10" }));
    const overlap = await fk.iterations.create({ groupId: groups.grp.id, title: "Other", startDate: "2024-06-10", dueDate: "2024-06-20" });
    expect(overlap._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { base: ["Dates cannot overlap with other existing Iterations within this group"] } });
    const title = await fk.iterations.create({ groupId: groups.grp.id, title: "Base", startDate: "2024-07-01", dueDate: "2024-07-10" });
    expect(title._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { title: ["has already been taken"] } });
    expect((await fk.iterations.create({ groupId: groups.sub.id, title: "Base", startDate: "2024-06-01", dueDate: "2024-06-10" })).isOk()).toBe(true);
  });

  it("only groups hold iterations", async () => {
    const { fk, users } = await createTestForgekit();
    for (const groupId of [99999, users.alice.namespaceId ?? -1]) {
      expect((await fk.iterations.create({ groupId, title: "T", startDate: "2024-06-01", dueDate: "2024-06-02" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
    }
  });

  it("groupsFor: the group first, then the ancestors the viewer can read; invisible → not found", async () => {
    const { fk, groups, users } = await createTestForgekit();
    const deep = await must(fk.groups.create({ name: "Deep", path: "deep", parentId: groups.sub.id, visibility: "private" }));
    const ids = async (...args: Parameters<typeof fk.iterations.groupsFor>) => (await must(fk.iterations.groupsFor(...args))).map((g) => g.fullPath);
    expect(await ids(deep.id, { viewer: users.bob })).toEqual(["grp/sub/deep", "grp/sub", "grp"]);
    expect(await ids("grp/sub/deep", { viewer: users.bob, includeAncestors: false })).toEqual(["grp/sub/deep"]);
    expect(await ids("grp/sub")).toEqual(["grp/sub", "grp"]);
    expect(await ids("grp/sub", { viewer: users.alice })).toEqual(["grp/sub", "grp"]);
    expect((await fk.iterations.groupsFor("grp/sub", { viewer: null }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
    expect((await fk.iterations.groupsFor("secret", { viewer: users.bob }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
    expect((await fk.iterations.groupsFor("nope"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
  });

  it("list: states by the injected clock, filters, and an unknown state refused", async () => {
    const { fk, groups, clock } = await createTestForgekit();
    const past = await must(fk.iterations.create({ groupId: groups.grp.id, title: "Past", startDate: "2024-04-01", dueDate: "2024-04-30" }));
    clock.advance(60_000);
    const now = await must(fk.iterations.create({ groupId: groups.grp.id, title: "Now", startDate: "2024-05-01", dueDate: "2024-05-14" }));
    const titles = async (query: Parameters<typeof fk.iterations.list>[1]) =>
      (await must(fk.iterations.list([groups.grp.id], query, { kind: "offset", page: 1, perPage: 20 }))).items.map((i) => i.title);
    expect(await titles({ state: "opened" })).toEqual(["Now"]);
    expect(await titles({ state: "closed" })).toEqual(["Past"]);
    expect(await titles({ search: "NO" })).toEqual(["Now"]);
    expect(await titles({ updatedAfter: now.updatedAt })).toEqual(["Now"]);
    expect(await titles({ updatedBefore: past.updatedAt })).toEqual(["Past"]);
    expect(fk.iterations.stateOf(now)).toBe("current");
    clock.set("2024-05-15T00:00:00Z");
    expect(fk.iterations.stateOf(now)).toBe("closed");
    expect(await titles({ state: "current" })).toEqual([]);
    const bad = await fk.iterations.list([groups.grp.id], { state: "soon" as never }, { kind: "offset", page: 1, perPage: 20 });
    expect(bad._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "state", reason: "does not have a valid value" });
  });
});
