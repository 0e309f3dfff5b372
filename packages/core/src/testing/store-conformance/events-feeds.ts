/** Conformance: the author and authorised feeds, audience changes and retention deletes. */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { addMember, at, makeGroup, makeProject, makeUser, makeUserNamespace, type SuiteContext } from "./context.js";
import { as, eventWorld, feedIds, insertAll, newEvent } from "./events-context.js";

export function eventFeedTests(ctx: SuiteContext): void {
  it("events.list - author feed: the author's events in projects the viewer can read", async () => {
    const w = await eventWorld(ctx.store);
    const [inPub, inInt, inPriv, other, noProject] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1),
      newEvent(w.int.id, w.author.id, 2),
      newEvent(w.priv.id, w.author.id, 3),
      newEvent(w.pub.id, w.member.id, 4),
      newEvent(null, w.author.id, 5),
    ]);
    const feed = { kind: "author", authorId: w.author.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: null })).toEqual([inPub!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.outsider) })).toEqual([inInt!.id, inPub!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.member) })).toEqual([inPriv!.id, inInt!.id, inPub!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(w.admin) })).toEqual([inPriv!.id, inInt!.id, inPub!.id]);
    expect([other!.id, noProject!.id]).not.toContain((await feedIds(ctx.store, { feed, viewer: as(w.admin) }))[0]);
  });

  it("events.list - author feed: audiences are checked against each event's project", async () => {
    const w = await eventWorld(ctx.store);
    const [pubReporters, privMembers, privReporters, own] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1, { audience: "reporters" }),
      newEvent(w.priv.id, w.author.id, 2, { audience: "members" }),
      newEvent(w.priv.id, w.author.id, 3, { audience: "reporters" }),
      newEvent(w.int.id, w.author.id, 4, { audience: "members", audienceUserId: w.outsider.id }),
    ]);
    const feed = { kind: "author", authorId: w.author.id } as const;
    const sort = "asc" as const;
    // member: Reporter of pub, Guest of priv.
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.member) })).toEqual([pubReporters!.id, privMembers!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.outsider) })).toEqual([own!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.author) })).toEqual([privMembers!.id, privReporters!.id]);
    expect(await feedIds(ctx.store, { feed, sort, viewer: as(w.admin) })).toHaveLength(4);
  });

  it("events.list - author feed: filters and pages apply after visibility", async () => {
    const w = await eventWorld(ctx.store);
    const events = await insertAll(ctx.store, [
      newEvent(w.priv.id, w.author.id, 1, { action: "closed" }),
      newEvent(w.pub.id, w.author.id, 2, { action: "closed" }),
      newEvent(w.priv.id, w.author.id, 3, { action: "closed" }),
      newEvent(w.pub.id, w.author.id, 4, { action: "closed" }),
      newEvent(w.pub.id, w.author.id, 5),
    ]);
    const filter = { feed: { kind: "author", authorId: w.author.id } as const, viewer: null, now: at(0), sort: "desc" as const, action: "closed" as const };
    const page = await ctx.store.activity.events.list(filter, { kind: "offset", page: 1, perPage: 1 });
    expect(page.items.map((e) => e.id)).toEqual([events[3]!.id]);
    expect(page).toMatchObject({ total: 2, hasNext: true });
  });

  it("events.list - authorised feed: projects of direct, group and own-namespace memberships only", async () => {
    const w = await eventWorld(ctx.store);
    const viewer = await makeUser(ctx.store);
    const home = await makeUserNamespace(ctx.store, viewer);
    const mine = await makeProject(ctx.store, home);
    const team = await makeGroup(ctx.store, { visibility: "private" });
    const sub = await makeGroup(ctx.store, { parent: team, visibility: "private" });
    const deep = await makeProject(ctx.store, sub);
    await addMember(ctx.store, { kind: "namespace", of: team }, viewer, AccessLevel.Developer);
    await addMember(ctx.store, { kind: "project", of: w.int }, viewer, AccessLevel.Guest);
    const [inMine, inDeep, inInt, inPub] = await insertAll(ctx.store, [
      newEvent(mine.id, w.author.id, 1),
      newEvent(deep.id, w.author.id, 2),
      newEvent(w.int.id, w.author.id, 3),
      newEvent(w.pub.id, w.author.id, 4),
    ]);
    const feed = { kind: "authorized", userId: viewer.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: as(viewer) })).toEqual([inInt!.id, inDeep!.id, inMine!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(viewer) })).not.toContain(inPub!.id);
  });

  it("events.list - authorised feed: expired memberships do not count; guests miss reporter events", async () => {
    const w = await eventWorld(ctx.store);
    const viewer = await makeUser(ctx.store);
    await addMember(ctx.store, { kind: "project", of: w.int }, viewer, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "project", of: w.priv }, viewer, AccessLevel.Maintainer, at(10));
    const [open, confidential, inPriv] = await insertAll(ctx.store, [
      newEvent(w.int.id, w.author.id, 1),
      newEvent(w.int.id, w.author.id, 2, { audience: "reporters" }),
      newEvent(w.priv.id, w.author.id, 3, { audience: "reporters" }),
    ]);
    const feed = { kind: "authorized", userId: viewer.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: as(viewer), now: at(5) })).toEqual([inPriv!.id, open!.id]);
    expect(await feedIds(ctx.store, { feed, viewer: as(viewer), now: at(10) })).toEqual([open!.id]);
    expect(confidential).toBeDefined();
  });

  it("events.list - authorised feed: merges projects in feed order across pages, with filters", async () => {
    const w = await eventWorld(ctx.store);
    const viewer = await makeUser(ctx.store);
    const projects = [w.pub, w.int, w.priv];
    for (const project of projects) await addMember(ctx.store, { kind: "project", of: project }, viewer, AccessLevel.Developer);
    const events = await insertAll(
      ctx.store,
      Array.from({ length: 9 }, (_, i) => newEvent(projects[i % 3]!.id, w.author.id, i % 4, i === 4 ? { action: "closed" } : {})),
    );
    const expected = [...events].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((e) => e.id);
    const filter = { feed: { kind: "authorized", userId: viewer.id } as const, viewer: as(viewer), now: at(0), sort: "desc" as const };
    const pages = [];
    for (let n = 1; n <= 3; n++) pages.push(await ctx.store.activity.events.list(filter, { kind: "offset", page: n, perPage: 4 }));
    expect(pages.flatMap((p) => p.items.map((e) => e.id))).toEqual(expected);
    expect(pages.map((p) => [p.total, p.hasNext])).toEqual([[9, true], [9, true], [9, false]]);
    expect(await feedIds(ctx.store, { ...filter, action: "closed" })).toEqual([events[4]!.id]);
    expect(await feedIds(ctx.store, { ...filter, sort: "asc" })).toEqual([...expected].reverse());
  });

  it("events.setAudience - re-audiences events of the given targets only", async () => {
    const w = await eventWorld(ctx.store);
    const [issue, note, otherIssue] = await insertAll(ctx.store, [
      newEvent(w.pub.id, w.author.id, 1, { targetType: "Issue", targetId: 5 }),
      newEvent(w.pub.id, w.author.id, 2, { targetType: "Note", targetId: 8, note: { id: 8, body: "b", attachment: null, authorId: w.author.id, createdAt: at(2), system: false, noteableType: "Issue", noteableId: 5, noteableIid: 1 } }),
      newEvent(w.pub.id, w.author.id, 3, { targetType: "Issue", targetId: 8 }),
    ]);
    const changed = await ctx.store.activity.events.setAudience([{ type: "Issue", id: 5 }, { type: "Note", id: 8 }], "reporters", w.author.id);
    expect(changed).toBe(2);
    expect(await ctx.store.activity.events.findById(issue!.id)).toMatchObject({ audience: "reporters", audienceUserId: w.author.id });
    expect(await ctx.store.activity.events.findById(note!.id)).toMatchObject({ audience: "reporters", audienceUserId: w.author.id });
    expect(await ctx.store.activity.events.findById(otherIssue!.id)).toMatchObject({ audience: "project", audienceUserId: null });
  });

  it("events.deleteCreatedBefore - oldest first, at most `limit`, strictly before the cutoff", async () => {
    const w = await eventWorld(ctx.store);
    const events = await insertAll(ctx.store, [newEvent(w.pub.id, w.author.id, 3), newEvent(w.pub.id, w.author.id, 1), newEvent(w.pub.id, w.author.id, 2), newEvent(w.pub.id, w.author.id, 5)]);
    expect(await ctx.store.activity.events.deleteCreatedBefore(at(5), 2)).toBe(2);
    expect(await ctx.store.activity.events.findById(events[1]!.id)).toBeNull();
    expect(await ctx.store.activity.events.findById(events[2]!.id)).toBeNull();
    expect(await ctx.store.activity.events.findById(events[0]!.id)).not.toBeNull();
    expect(await ctx.store.activity.events.deleteCreatedBefore(at(5), 10)).toBe(1);
    expect(await ctx.store.activity.events.deleteCreatedBefore(at(5), 10)).toBe(0);
    expect(await ctx.store.activity.events.findById(events[3]!.id)).not.toBeNull();
  });
}
