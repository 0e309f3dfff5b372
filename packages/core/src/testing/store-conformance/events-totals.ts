/**
 * Conformance: feed totals around TOTAL_COUNT_LIMIT stay exact (spec "Limits": above 10,000 matching
 * records the total is omitted, at or below it is exact) however a store reaches them — SQL stores
 * read event counters first (migration 0016), so every write that changes what a feed holds must
 * move the total across the limit on the very next read: audience changes, retention deletes,
 * removing an author.
 */
import { expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import type { EventListFilter } from "../../ports/activity-store.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import { addMember, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";
import { as, eventWorld, insertAll, newEvent } from "./events-context.js";

export function eventTotalTests(ctx: SuiteContext): void {
  it("events.list - totals: events addressed to the viewer and audiences above the viewer's, in every feed and with time bounds", async () => {
    const w = await eventWorld(ctx.store);
    await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1),
      newEvent(w.pub.id, w.author.id, 2, { audience: "signed_in" }),
      newEvent(w.pub.id, w.author.id, 3, { audience: "members" }),
      newEvent(w.pub.id, w.author.id, 4, { audience: "reporters" }),
      newEvent(w.pub.id, w.author.id, 5, { audience: "reporters", audienceUserId: w.outsider.id }),
      newEvent(w.pub.id, w.author.id, 6, { audience: "members", audienceUserId: w.outsider.id }),
      newEvent(w.int.id, w.author.id, 7),
    ]);
    const total = async (filter: Partial<EventListFilter> & Pick<EventListFilter, "feed" | "viewer">) =>
      (await ctx.store.activity.events.list({ now: at(0), sort: "desc", ...filter }, { kind: "offset", page: 1, perPage: 1 })).total;
    const project = { kind: "project", projectId: w.pub.id } as const;
    const author = { kind: "author", authorId: w.author.id } as const;
    expect(await total({ feed: project, viewer: null })).toBe(1);
    expect(await total({ feed: project, viewer: as(w.outsider) })).toBe(4);
    expect(await total({ feed: project, viewer: as(w.member) })).toBe(6);
    expect(await total({ feed: project, viewer: as(w.admin) })).toBe(6);
    expect(await total({ feed: project, viewer: as(w.outsider), createdAfter: at(1) })).toBe(3);
    expect(await total({ feed: project, viewer: as(w.outsider), createdBefore: at(6) })).toBe(3);
    expect(await total({ feed: author, viewer: null })).toBe(1);
    expect(await total({ feed: author, viewer: as(w.outsider) })).toBe(5);
    expect(await total({ feed: author, viewer: as(w.admin) })).toBe(7);
    expect(await total({ feed: author, viewer: as(w.admin), createdAfter: at(2) })).toBe(5);
    expect(await total({ feed: { kind: "authorized", userId: w.member.id }, viewer: as(w.member) })).toBe(6);
  });

  it("events.list - authorised feed over more projects than one SQL statement merges (130): pages in feed order, exact totals", async () => {
    const viewer = await makeUser(ctx.store);
    const author = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store, { visibility: "private" });
    await addMember(ctx.store, { kind: "namespace", of: group }, viewer, AccessLevel.Reporter);
    const projects: Project[] = [];
    for (let i = 0; i < 130; i++) projects.push(await makeProject(ctx.store, group, { visibility: "private" }));
    // Event k lies in project k % 130 at minute k: feed order interleaves every project.
    const events = await insertAll(ctx.store, Array.from({ length: 260 }, (_, k) => newEvent(projects[k % 130]!.id, author.id, k, k % 3 === 0 ? { action: "closed" } : {})));
    const feed = { kind: "authorized", userId: viewer.id } as const;
    const list = (page: number, filter: Partial<EventListFilter> = {}) =>
      ctx.store.activity.events.list({ feed, viewer: as(viewer), now: at(0), sort: "desc", ...filter }, { kind: "offset", page, perPage: 20 });
    const newestFirst = events.map((e) => e.id).reverse();
    const first = await list(1);
    expect(first.items.map((e) => e.id)).toEqual(newestFirst.slice(0, 20));
    expect(first).toMatchObject({ total: 260, hasNext: true });
    const deep = await list(7);
    expect(deep.items.map((e) => e.id)).toEqual(newestFirst.slice(120, 140));
    const last = await list(13);
    expect(last).toMatchObject({ total: 260, hasNext: false });
    expect(last.items.map((e) => e.id)).toEqual(newestFirst.slice(240, 260));
    expect(await list(14)).toEqual({ items: [], total: 260, hasNext: false });
    const bounded = await list(2, { action: "closed", createdAfter: at(9), sort: "asc" });
    const closedAfter9 = events.filter((e, k) => k % 3 === 0 && k > 9).map((e) => e.id);
    expect(bounded.items.map((e) => e.id)).toEqual(closedAfter9.slice(20, 40));
    expect(bounded).toMatchObject({ total: closedAfter9.length, hasNext: true });
  });

  it(
    "events.list - totals: exact at 10,000, null above, across audience changes, prunes and author removal",
    async () => {
      expect(TOTAL_COUNT_LIMIT).toBe(10_000);
      const [a, b, member] = [await makeUser(ctx.store), await makeUser(ctx.store), await makeUser(ctx.store)];
      const group = await makeGroup(ctx.store, { visibility: "public" });
      const pub = await makeProject(ctx.store, group, { visibility: "public" });
      await addMember(ctx.store, { kind: "project", of: pub }, member, AccessLevel.Reporter);
      // Hourly events: 0 and 1 by b (closed), 2 … 10,001 by a (2 and 3 about issue 1): 10,002 in all.
      await ctx.store.transaction(async (tx) => {
        for (let i = 0; i < TOTAL_COUNT_LIMIT + 2; i++) {
          const issue = i === 2 || i === 3 ? { targetType: "Issue" as const, targetId: 1, targetIid: 1, targetTitle: "i" } : {};
          await tx.activity.events.insert(newEvent(pub.id, i < 2 ? b.id : a.id, i * 60, i < 2 ? { action: "closed" } : issue));
        }
      });
      const project = { kind: "project", projectId: pub.id } as const;
      const total = async (filter: Partial<EventListFilter> & Pick<EventListFilter, "feed">) => {
        const page = await ctx.store.activity.events.list({ viewer: null, now: at(0), sort: "desc", ...filter }, { kind: "offset", page: 1, perPage: 20 });
        expect(page.items).toHaveLength(20);
        return page.total;
      };
      const authorA = { kind: "author", authorId: a.id } as const;
      const authorised = { feed: { kind: "authorized", userId: member.id } as const, viewer: as(member) };

      expect(await total({ feed: project })).toBeNull();
      expect(await total({ feed: authorA })).toBe(10_000);
      expect(await total(authorised)).toBeNull();
      expect(await total({ feed: project, createdAfter: at(60) })).toBe(10_000);
      expect(await total({ feed: project, createdAfter: at(120) })).toBe(9_999);
      expect(await total({ feed: project, createdBefore: at(10_001 * 60) })).toBeNull();
      expect(await total({ feed: project, createdAfter: at(60), createdBefore: at(10_001 * 60) })).toBe(9_999);

      // Issue 1 turns confidential: anonymous readers lose its two events, a Reporter keeps them.
      await ctx.store.activity.events.setAudience([{ type: "Issue", id: 1 }], "reporters", null);
      expect(await total({ feed: project })).toBe(10_000);
      expect(await total({ feed: project, viewer: as(member) })).toBeNull();
      expect(await total(authorised)).toBeNull();
      expect(await total({ feed: authorA })).toBe(9_998);
      await ctx.store.activity.events.setAudience([{ type: "Issue", id: 1 }], "project", null);
      expect(await total({ feed: project })).toBeNull();

      // Retention removes b's two events.
      expect(await ctx.store.activity.events.deleteCreatedBefore(at(61), 100)).toBe(2);
      expect(await total({ feed: project })).toBe(10_000);
      expect(await total(authorised)).toBe(10_000);

      // One more event by b, then b is removed with their events.
      await ctx.store.activity.events.insert(newEvent(pub.id, b.id, 20_000 * 60));
      expect(await total({ feed: project })).toBeNull();
      expect(await ctx.store.users.remove(b.id)).toBe(true);
      expect(await total({ feed: project })).toBe(10_000);
      expect(await total(authorised)).toBe(10_000);
    },
    600_000,
  );
}
