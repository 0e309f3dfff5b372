/** Conformance: the users' activity day (`users.recordActivity`, `users.list` by activity). */
import { expect, it } from "vitest";
import { T0, ids, makeUser, unique, type SuiteContext } from "./context.js";

const firstPage = { kind: "offset", page: 1, perPage: 100 } as const;

export function userActivityTests(ctx: SuiteContext): void {
  it("users.recordActivity - sets the day of a user never active, changing nothing else (not updatedAt)", async () => {
    const user = await makeUser(ctx.store);
    expect(user.lastActivityOn).toBeNull();
    expect(await ctx.store.users.recordActivity(user.id, "2026-03-01")).toBe(true);
    expect(await ctx.store.users.findById(user.id)).toEqual({ ...user, lastActivityOn: "2026-03-01", updatedAt: T0 });
  });

  it("users.recordActivity - replaces an earlier day, keeps the same or a later one (the day never moves back)", async () => {
    const user = await makeUser(ctx.store);
    await ctx.store.users.recordActivity(user.id, "2026-02-27");
    expect(await ctx.store.users.recordActivity(user.id, "2026-03-01")).toBe(true);
    expect(await ctx.store.users.recordActivity(user.id, "2026-03-01")).toBe(false);
    expect(await ctx.store.users.recordActivity(user.id, "2026-02-28")).toBe(false);
    expect((await ctx.store.users.findById(user.id))?.lastActivityOn).toBe("2026-03-01");
    // Days compare as calendar days across months and years.
    expect(await ctx.store.users.recordActivity(user.id, "2027-01-01")).toBe(true);
    expect((await ctx.store.users.findById(user.id))?.lastActivityOn).toBe("2027-01-01");
  });

  it("users.recordActivity - writes only the user named; an unknown id writes nothing", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    await ctx.store.users.recordActivity(a.id, "2026-03-01");
    expect((await ctx.store.users.findById(b.id))?.lastActivityOn).toBeNull();
    expect(await ctx.store.users.recordActivity(b.id + 1000, "2026-03-01")).toBe(false);
  });

  it("users.recordActivity - racing writers of different days end on the latest", async () => {
    const user = await makeUser(ctx.store);
    await Promise.all(["2026-02-25", "2026-03-01", "2026-02-27", "2026-03-01", "2026-02-26"].map((day) => ctx.store.users.recordActivity(user.id, day)));
    expect((await ctx.store.users.findById(user.id))?.lastActivityOn).toBe("2026-03-01");
  });

  it("users.recordActivity - other reads of the user carry the day (token with its user, updates keep it)", async () => {
    const user = await makeUser(ctx.store);
    await ctx.store.users.recordActivity(user.id, "2026-03-01");
    const token = await ctx.store.accessTokens.create({ userId: user.id, kind: "personal", name: "t", digest: unique("activity-digest-").padEnd(64, "0"), scopes: ["api"], expiresAt: null }, T0);
    expect((await ctx.store.accessTokens.findByDigestWithUser(token.digest))?.user?.lastActivityOn).toBe("2026-03-01");
    expect((await ctx.store.users.update(user.id, { name: "Renamed" }))?.lastActivityOn).toBe("2026-03-01");
    expect((await ctx.store.users.findByIds([user.id]))[0]?.lastActivityOn).toBe("2026-03-01");
  });

  it("users.list - activeSince keeps users active on or after the day; by last_activity_on, oldest day first, ties by id", async () => {
    const never = await makeUser(ctx.store);
    const old = await makeUser(ctx.store);
    const edge = await makeUser(ctx.store);
    const late = await makeUser(ctx.store);
    const edgeToo = await makeUser(ctx.store, { bot: "project_bot" });
    await ctx.store.users.recordActivity(old.id, "2025-08-31");
    await ctx.store.users.recordActivity(late.id, "2026-03-01");
    await ctx.store.users.recordActivity(edge.id, "2025-09-01");
    await ctx.store.users.recordActivity(edgeToo.id, "2025-09-01");
    const listed = await ctx.store.users.list({ activeSince: "2025-09-01", includeBots: true, orderBy: "last_activity_on" }, firstPage);
    expect(ids(listed.items)).toEqual([edge.id, edgeToo.id, late.id]);
    expect(listed.total).toBe(3);
    const all = await ctx.store.users.list({ includeBots: true, orderBy: "last_activity_on", sort: "desc" }, firstPage);
    // Never active counts as earlier than any day: last when descending.
    expect(ids(all.items)).toEqual([late.id, edgeToo.id, edge.id, old.id, never.id]);
    const page = await ctx.store.users.list({ activeSince: "2025-09-01", includeBots: true, orderBy: "last_activity_on" }, { kind: "offset", page: 2, perPage: 2 });
    expect(page).toMatchObject({ total: 3, hasNext: false });
    expect(ids(page.items)).toEqual([late.id]);
  });
}
