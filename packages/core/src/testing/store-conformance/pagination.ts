/** Conformance: offset page edges shared by every list, including the 10,000-record total limit. */
import { expect, it } from "vitest";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import type { OffsetPageRequest } from "../../ports/store.js";
import { T0, ids, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const offset = (page: number, perPage: number): OffsetPageRequest => ({ kind: "offset", page, perPage });

export function paginationTests(ctx: SuiteContext): void {
  it("pagination - a page past the end is empty, keeps the exact total and has no next page", async () => {
    for (let i = 0; i < 3; i++) await makeUser(ctx.store);
    expect(await ctx.store.users.list({}, offset(5, 2))).toEqual({ items: [], total: 3, hasNext: false });
  });

  it("pagination - an exactly full last page has no next page", async () => {
    const group = await makeGroup(ctx.store, { visibility: "public" });
    for (let i = 0; i < 4; i++) await makeProject(ctx.store, group, { visibility: "public" });
    const page = await ctx.store.projects.list({ viewer: null, orderBy: "id", sort: "asc" }, offset(2, 2));
    expect(page).toMatchObject({ total: 4, hasNext: false });
    expect(page.items).toHaveLength(2);
  });

  it("pagination - groups and projects report totals of the filtered set, not of the table", async () => {
    const pub = await makeGroup(ctx.store, { visibility: "public" });
    await makeGroup(ctx.store, { visibility: "private" });
    await makeGroup(ctx.store, { visibility: "public", parent: pub });
    await makeProject(ctx.store, pub, { visibility: "public" });
    await makeProject(ctx.store, pub, { visibility: "private" });
    const groups = await ctx.store.namespaces.listGroups({ viewer: null }, offset(1, 1));
    expect(groups).toMatchObject({ total: 2, hasNext: true });
    expect(groups.items).toHaveLength(1);
    expect(await ctx.store.projects.list({ viewer: null }, offset(1, 1))).toMatchObject({ total: 1, hasNext: false });
  });

  it("pagination - rejects page below 1 and perPage outside 1…100", async () => {
    await expect(ctx.store.users.list({}, offset(0, 20))).rejects.toThrow();
    await expect(ctx.store.users.list({}, offset(1, 0))).rejects.toThrow();
    await expect(ctx.store.users.list({}, offset(1, 101))).rejects.toThrow();
    await expect(ctx.store.projects.list({ viewer: null }, offset(-1, 20))).rejects.toThrow();
    await expect(ctx.store.namespaces.listGroups({ viewer: null }, offset(1, 1.5))).rejects.toThrow();
    await expect(ctx.store.projects.list({ viewer: null }, { kind: "keyset", perPage: 0 })).rejects.toThrow();
    await expect(ctx.store.namespaces.listGroups({ viewer: null }, { kind: "keyset", perPage: 101 })).rejects.toThrow();
  });

  it(
    "pagination - exactly 10,000 matching records report total 10000; 10,001 report null and still page",
    async () => {
      expect(TOTAL_COUNT_LIMIT).toBe(10_000);
      const last = await ctx.store.transaction(async (tx) => {
        let user = await makeUser(tx, { username: "bulk-blocked", state: "blocked" }, T0);
        for (let i = 0; i < TOTAL_COUNT_LIMIT; i++) {
          user = await makeUser(tx, { username: `bulk-${String(i).padStart(5, "0")}` }, T0);
        }
        return user;
      });
      const active = await ctx.store.users.list({ state: "active" }, offset(100, 100));
      expect(active.total).toBe(10_000);
      expect(active.hasNext).toBe(false);
      expect(active.items.at(-1)?.id).toBe(last.id);
      const everyone = await ctx.store.users.list({}, offset(1, 100));
      expect(everyone.total).toBeNull();
      expect(everyone.hasNext).toBe(true);
      expect(everyone.items[0]?.username).toBe("bulk-blocked");
      const tail = await ctx.store.users.list({}, offset(101, 100));
      expect(tail).toEqual({ items: [last], total: null, hasNext: false });
      const beyond = await ctx.store.users.list({}, offset(102, 100));
      expect(beyond).toEqual({ items: [], total: null, hasNext: false });
      expect(ids((await ctx.store.users.list({ state: "blocked", search: "bulk" }, offset(1, 5))).items)).toHaveLength(1);
    },
    300_000,
  );
}
