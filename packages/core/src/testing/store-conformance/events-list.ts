/** Conformance: EventRepository insert, order, filters and pagination (ports/activity-store.ts). */
import { expect, it } from "vitest";
import { at, type SuiteContext } from "./context.js";
import { as, eventWorld, feedIds, insertAll, newEvent } from "./events-context.js";

export function eventListTests(ctx: SuiteContext): void {
  it("events.insert - returns the event with its id; push and note payloads round-trip", async () => {
    const w = await eventWorld(ctx.store);
    const push = { commitCount: 2, action: "pushed" as const, refType: "branch" as const, commitFrom: "a".repeat(40), commitTo: "b".repeat(40), ref: "main", commitTitle: "Fix it" };
    const note = { id: 7, body: "Nice", attachment: null, authorId: w.member.id, createdAt: at(3), system: false, noteableType: "Issue", noteableId: 9, noteableIid: 2 };
    const [pushed, commented] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1, { action: "pushed", push }),
      newEvent(w.pub.id, w.member.id, 2, { action: "commented", targetType: "Note", targetId: 7, targetIid: 7, targetTitle: "T", note, audience: "reporters", audienceUserId: w.author.id }),
    ]);
    expect(pushed).toEqual({ id: pushed!.id, ...newEvent(w.pub.id, w.author.id, 1, { action: "pushed", push }) });
    expect(await ctx.store.activity.events.findById(commented!.id)).toEqual(commented);
    expect(commented).toMatchObject({ note, audience: "reporters", audienceUserId: w.author.id, targetType: "Note", targetIid: 7, targetTitle: "T" });
    expect(await ctx.store.activity.events.findById(commented!.id + 1000)).toBeNull();
  });

  it("events.list - newest first by creation time, ties by id; asc reverses both", async () => {
    const w = await eventWorld(ctx.store);
    const [a, b, c, d] = await insertAll(ctx.store, [newEvent(w.pub.id, w.author.id, 5), newEvent(w.pub.id, w.author.id, 1), newEvent(w.pub.id, w.author.id, 5), newEvent(w.pub.id, w.author.id, 3)]);
    const feed = { kind: "project", projectId: w.pub.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: null })).toEqual([c!.id, a!.id, d!.id, b!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: null, sort: "asc" })).toEqual([b!.id, d!.id, a!.id, c!.id]);
  });

  it("events.list - action and target type filters, alone and together", async () => {
    const w = await eventWorld(ctx.store);
    const [opened, closed, noted, closedMr] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1, { targetType: "Issue", targetId: 1 }),
      newEvent(w.pub.id, w.author.id, 2, { action: "closed", targetType: "Issue", targetId: 1 }),
      newEvent(w.pub.id, w.author.id, 3, { action: "commented", targetType: "Note", targetId: 4, note: { id: 4, body: "b", attachment: null, authorId: w.author.id, createdAt: at(3), system: false, noteableType: "Issue", noteableId: 1, noteableIid: 1 } }),
      newEvent(w.pub.id, w.author.id, 4, { action: "closed", targetType: "MergeRequest", targetId: 2 }),
    ]);
    const base = { feed: { kind: "project", projectId: w.pub.id } as const, viewer: null, sort: "asc" as const };
    expect(await feedIds(ctx.store, { ...base, action: "closed" })).toEqual([closed!.id, closedMr!.id]);
    expect(await feedIds(ctx.store, { ...base, targetType: "Issue" })).toEqual([opened!.id, closed!.id]);
    expect(await feedIds(ctx.store, { ...base, targetType: "Note" })).toEqual([noted!.id]);
    expect(await feedIds(ctx.store, { ...base, action: "closed", targetType: "MergeRequest" })).toEqual([closedMr!.id]);
    expect(await feedIds(ctx.store, { ...base, action: "merged" })).toEqual([]);
  });

  it("events.list - createdBefore and createdAfter are strict bounds", async () => {
    const w = await eventWorld(ctx.store);
    const [e1, e2, e3] = await insertAll(ctx.store, [newEvent(w.pub.id, w.author.id, 10), newEvent(w.pub.id, w.author.id, 20), newEvent(w.pub.id, w.author.id, 30)]);
    const base = { feed: { kind: "project", projectId: w.pub.id } as const, viewer: null, sort: "asc" as const };
    expect(await feedIds(ctx.store, { ...base, createdBefore: at(20) })).toEqual([e1!.id]);
    expect(await feedIds(ctx.store, { ...base, createdAfter: at(20) })).toEqual([e3!.id]);
    expect(await feedIds(ctx.store, { ...base, createdAfter: at(10), createdBefore: at(30) })).toEqual([e2!.id]);
    expect(await feedIds(ctx.store, { ...base, createdAfter: at(29.999), createdBefore: at(30.001) })).toEqual([e3!.id]);
  });

  it("events.list - offset pages with total and hasNext", async () => {
    const w = await eventWorld(ctx.store);
    const events = await insertAll(ctx.store, Array.from({ length: 5 }, (_, i) => newEvent(w.pub.id, w.author.id, i)));
    const filter = { feed: { kind: "project", projectId: w.pub.id } as const, viewer: null, now: at(0), sort: "asc" as const };
    const first = await ctx.store.activity.events.list(filter, { kind: "offset", page: 1, perPage: 2 });
    expect(first).toMatchObject({ total: 5, hasNext: true });
    expect(first.items).toEqual(events.slice(0, 2));
    const last = await ctx.store.activity.events.list(filter, { kind: "offset", page: 3, perPage: 2 });
    expect(last).toMatchObject({ total: 5, hasNext: false });
    expect(last.items.map((e) => e.id)).toEqual([events[4]!.id]);
    const beyond = await ctx.store.activity.events.list(filter, { kind: "offset", page: 9, perPage: 2 });
    expect(beyond).toEqual({ items: [], total: 5, hasNext: false });
  });

  it("events.list - project feed of a private project: members and administrators only", async () => {
    const w = await eventWorld(ctx.store);
    const [e] = await insertAll(ctx.store, [newEvent(w.priv.id, w.author.id, 1)]);
    const feed = { kind: "project", projectId: w.priv.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: null })).toEqual([]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.outsider) })).toEqual([]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.member) })).toEqual([e!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.admin) })).toEqual([e!.id]);
  });

  it("events.list - internal projects are for signed-in viewers", async () => {
    const w = await eventWorld(ctx.store);
    const [e] = await insertAll(ctx.store, [newEvent(w.int.id, w.author.id, 1)]);
    const feed = { kind: "project", projectId: w.int.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: null })).toEqual([]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.outsider) })).toEqual([e!.id]);
  });

  it("events.list - audiences: signed_in, members, reporters, and the audience user", async () => {
    const w = await eventWorld(ctx.store);
    const [everyone, signedIn, members, reporters, forOutsider] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1),
      newEvent(w.pub.id, w.author.id, 2, { audience: "signed_in" }),
      newEvent(w.pub.id, w.author.id, 3, { audience: "members" }),
      newEvent(w.pub.id, w.author.id, 4, { audience: "reporters" }),
      newEvent(w.pub.id, w.author.id, 5, { audience: "reporters", audienceUserId: w.outsider.id }),
    ]);
    const feed = { kind: "project", projectId: w.pub.id } as const;
    const sort = "asc" as const;
    expect(await feedIds(ctx.store, { feed, sort, viewer: null })).toEqual([everyone!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.outsider) })).toEqual([everyone!.id, signedIn!.id, forOutsider!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.member) })).toEqual([everyone!.id, signedIn!.id, members!.id, reporters!.id, forOutsider!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.admin) })).toHaveLength(5);
    const [guestOnly] = await insertAll(ctx.store, [newEvent(w.priv.id, w.author.id, 6, { audience: "reporters" })]);
    const privFeed = { kind: "project", projectId: w.priv.id } as const;
    expect(await feedIds(ctx.store, { feed: privFeed, viewer: as(w.member) })).toEqual([]);
    expect(await feedIds(ctx.store, { feed: privFeed, viewer: as(w.author) })).toEqual([guestOnly!.id]);
  });

  it("events.list - totals count visible events only, so pages are full", async () => {
    const w = await eventWorld(ctx.store);
    const events = await insertAll(
      ctx.store,
      Array.from({ length: 6 }, (_, i) => newEvent(w.pub.id, w.author.id, i, i % 2 === 0 ? { audience: "reporters" } : {})),
    );
    const visible = events.filter((_, i) => i % 2 === 1).map((e) => e.id).reverse();
    const filter = { feed: { kind: "project", projectId: w.pub.id } as const, viewer: null, now: at(0), sort: "desc" as const };
    const first = await ctx.store.activity.events.list(filter, { kind: "offset", page: 1, perPage: 2 });
    expect(first.items.map((e) => e.id)).toEqual(visible.slice(0, 2));
    expect(first).toMatchObject({ total: 3, hasNext: true });
  });
}
