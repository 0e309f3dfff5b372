/** Conformance: IterationRepository. */
import { expect, it } from "vitest";
import type { Iteration } from "../../iterations/types.js";
import type { NewIteration } from "../../ports/iterations-store.js";
import { T0, at, ids, makeGroup, type SuiteContext } from "./context.js";

export function iterationTests(ctx: SuiteContext): void {
  const iterations = () => ctx.store.iterations;
  const create = async (input: NewIteration, now = T0): Promise<Iteration> => {
    const result = await iterations().create(input, now);
    if (!("created" in result)) throw new Error(`fixture iteration refused: ${result.refused}`);
    return result.created;
  };
  const make = (groupId: number, title: string, startDate: string, dueDate: string, now = T0) => create({ groupId, title, description: "", startDate, dueDate }, now);
  const page = { kind: "offset", page: 1, perPage: 100 } as const;

  it("iterations.create - returns the stored iteration, iid 1 and sequence 1 for the first of a group", async () => {
    const group = await makeGroup(ctx.store);
    const created = await create({ groupId: group.id, title: "Sprint 1", description: "First", startDate: "2026-03-02", dueDate: "2026-03-15" });
    expect(created).toEqual({
      id: expect.any(Number),
      iid: 1,
      sequence: 1,
      groupId: group.id,
      title: "Sprint 1",
      description: "First",
      startDate: "2026-03-02",
      dueDate: "2026-03-15",
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await iterations().findById(created.id)).toEqual(created);
    expect(await iterations().findById(created.id + 1000)).toBeNull();
  });

  it("iterations.create - keeps a long description (beyond 64 KiB of UTF-8) unchanged", async () => {
    const group = await makeGroup(ctx.store);
    const description = "é".repeat(40_000) + "🚀".repeat(10_000);
    const created = await create({ groupId: group.id, title: "Long", description, startDate: "2026-03-02", dueDate: "2026-03-15" });
    expect((await iterations().findById(created.id))?.description).toBe(description);
  });

  it("iterations.create - iids count up per group; sequences follow the start dates", async () => {
    const group = await makeGroup(ctx.store);
    const other = await makeGroup(ctx.store);
    const late = await make(group.id, "Late", "2026-05-01", "2026-05-14");
    const early = await make(group.id, "Early", "2026-03-01", "2026-03-14");
    const elsewhere = await make(other.id, "Elsewhere", "2026-01-01", "2026-01-14");
    expect([late.iid, early.iid, elsewhere.iid]).toEqual([1, 2, 1]);
    expect(early.sequence).toBe(1);
    expect((await iterations().findById(late.id))?.sequence).toBe(2);
    expect(elsewhere.sequence).toBe(1);
  });

  it("iterations.create - refuses dates sharing a day with another iteration of the group (inclusive)", async () => {
    const group = await makeGroup(ctx.store);
    const other = await makeGroup(ctx.store);
    await make(group.id, "Base", "2026-03-10", "2026-03-20");
    const cases: [string, string][] = [
      ["2026-03-20", "2026-03-25"],
      ["2026-03-01", "2026-03-10"],
      ["2026-03-12", "2026-03-13"],
      ["2026-03-01", "2026-03-31"],
    ];
    for (const [startDate, dueDate] of cases) {
      expect(await iterations().create({ groupId: group.id, title: `T ${startDate}`, description: "", startDate, dueDate }, T0)).toEqual({ refused: "dates_overlap" });
    }
    expect((await make(group.id, "Next", "2026-03-21", "2026-03-31")).iid).toBe(2);
    expect((await make(other.id, "Same days", "2026-03-10", "2026-03-20")).groupId).toBe(other.id);
    expect((await iterations().list({ groupIds: [group.id], today: "2026-03-01" }, page)).total).toBe(2);
  });

  it("iterations.create - refuses a title already used in the group, exactly (not across groups or cases)", async () => {
    const group = await makeGroup(ctx.store);
    const other = await makeGroup(ctx.store);
    await make(group.id, "Sprint", "2026-03-01", "2026-03-07");
    expect(await iterations().create({ groupId: group.id, title: "Sprint", description: "", startDate: "2026-04-01", dueDate: "2026-04-07" }, T0)).toEqual({ refused: "title_taken" });
    expect((await make(group.id, "sprint", "2026-04-01", "2026-04-07")).iid).toBe(2);
    expect((await make(other.id, "Sprint", "2026-04-01", "2026-04-07")).iid).toBe(1);
  });

  it("iterations.list - only the named groups; ordered by due date, title (code point), id", async () => {
    const group = await makeGroup(ctx.store);
    const parent = await makeGroup(ctx.store);
    const hidden = await makeGroup(ctx.store);
    const b = await make(group.id, "b", "2026-03-01", "2026-03-10");
    const upper = await make(parent.id, "B", "2026-03-05", "2026-03-10");
    const a = await make(parent.id, "a", "2026-02-01", "2026-02-20");
    const z = await make(group.id, "z", "2026-01-01", "2026-01-10");
    await make(hidden.id, "hidden", "2026-01-01", "2026-01-10");
    const listed = await iterations().list({ groupIds: [group.id, parent.id], today: "2026-03-01" }, page);
    expect(ids(listed.items)).toEqual([z.id, a.id, upper.id, b.id]);
    expect(listed).toMatchObject({ total: 4, hasNext: false });
    expect((await iterations().list({ groupIds: [], today: "2026-03-01" }, page)).items).toEqual([]);
  });

  it("iterations.list - states on the given day: upcoming after it, closed before it, current through it", async () => {
    const group = await makeGroup(ctx.store);
    const closed = await make(group.id, "closed", "2026-02-01", "2026-02-28");
    const current = await make(group.id, "current", "2026-03-01", "2026-03-10");
    const upcoming = await make(group.id, "upcoming", "2026-03-11", "2026-03-20");
    const on = (today: string, states: ("upcoming" | "current" | "closed")[]) => iterations().list({ groupIds: [group.id], today, states }, page).then((r) => ids(r.items));
    expect(await on("2026-03-01", ["current"])).toEqual([current.id]);
    expect(await on("2026-03-10", ["current"])).toEqual([current.id]);
    expect(await on("2026-03-10", ["upcoming"])).toEqual([upcoming.id]);
    expect(await on("2026-03-01", ["closed"])).toEqual([closed.id]);
    expect(await on("2026-03-11", ["upcoming", "current"])).toEqual([upcoming.id]);
    expect(await on("2026-03-21", ["closed"])).toEqual([closed.id, current.id, upcoming.id]);
    expect(await on("2026-03-05", [])).toEqual([]);
  });

  it("iterations.list - search is a case-insensitive substring of the title, % and _ literal", async () => {
    const group = await makeGroup(ctx.store);
    const sprint = await make(group.id, "Sprint 1%", "2026-03-01", "2026-03-07");
    const under = await make(group.id, "release_1", "2026-03-08", "2026-03-14");
    await make(group.id, "releaseX1", "2026-03-15", "2026-03-21");
    const search = (term: string) => iterations().list({ groupIds: [group.id], today: "2026-03-01", search: term }, page).then((r) => ids(r.items));
    expect(await search("SPRINT")).toEqual([sprint.id]);
    expect(await search("1%")).toEqual([sprint.id]);
    expect(await search("e_1")).toEqual([under.id]);
  });

  it("iterations.list - updated bounds are inclusive", async () => {
    const group = await makeGroup(ctx.store);
    const first = await make(group.id, "first", "2026-03-01", "2026-03-07", at(0));
    const second = await make(group.id, "second", "2026-03-08", "2026-03-14", at(10));
    const third = await make(group.id, "third", "2026-03-15", "2026-03-21", at(20));
    const within = (bounds: { updatedBefore?: Date; updatedAfter?: Date }) => iterations().list({ groupIds: [group.id], today: "2026-03-01", ...bounds }, page).then((r) => ids(r.items));
    expect(await within({ updatedBefore: at(10) })).toEqual([first.id, second.id]);
    expect(await within({ updatedAfter: at(10) })).toEqual([second.id, third.id]);
    expect(await within({ updatedAfter: at(10), updatedBefore: at(10) })).toEqual([second.id]);
    expect(await within({ updatedAfter: at(11), updatedBefore: at(9) })).toEqual([]);
  });

  it("iterations.list - offset pages with totals", async () => {
    const group = await makeGroup(ctx.store);
    const made: Iteration[] = [];
    for (let i = 1; i <= 5; i++) made.push(await make(group.id, `s${i}`, `2026-0${i}-01`, `2026-0${i}-10`));
    const second = await iterations().list({ groupIds: [group.id], today: "2026-01-01" }, { kind: "offset", page: 2, perPage: 2 });
    expect(ids(second.items)).toEqual([made[2]!.id, made[3]!.id]);
    expect(second).toMatchObject({ total: 5, hasNext: true });
    expect(second.items.map((item) => item.sequence)).toEqual([3, 4]);
  });

  if (ctx.options.concurrency !== false) {
    it("iterations.create - of racing creates with overlapping dates exactly one wins; iids never repeat", async () => {
      const group = await makeGroup(ctx.store);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => iterations().create({ groupId: group.id, title: `race ${i}`, description: "", startDate: "2026-06-01", dueDate: `2026-06-1${i}` }, T0)),
      );
      expect(results.filter((r) => "created" in r)).toHaveLength(1);
      const spread = await Promise.all(
        Array.from({ length: 6 }, (_, i) => iterations().create({ groupId: group.id, title: `month ${i}`, description: "", startDate: `2027-0${i + 1}-01`, dueDate: `2027-0${i + 1}-20` }, T0)),
      );
      const iids = spread.map((r) => ("created" in r ? r.created.iid : 0)).sort((x, y) => x - y);
      expect(iids).toEqual([2, 3, 4, 5, 6, 7]);
    });
  }
}
