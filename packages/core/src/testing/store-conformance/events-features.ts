/**
 * Conformance: event feeds leave out the events of project features the viewer may not use (issue
 * 19 §1; events/features.ts): issue, merge request and snippet events and their notes, pushes and
 * commit notes (repository) — `disabled` to everyone, `private` to members below the feature's
 * minimum level — in every feed, with totals that count only what is listed.
 */
import { expect, it } from "vitest";
import type { ProjectFeatures } from "../../accounts/project-features.js";
import { DEFAULT_PROJECT_FEATURES } from "../../accounts/project-features.js";
import type { NewEvent } from "../../ports/activity-store.js";
import { at } from "./context.js";
import type { SuiteContext } from "./context.js";
import { as, eventWorld, feedIds, insertAll, newEvent } from "./events-context.js";

const note = (noteableType: string, body = "a note") => ({ id: 1, body, attachment: null, authorId: 1, createdAt: at(0), system: false, noteableType, noteableId: 1, noteableIid: 1 });
const push = { commitCount: 1, action: "pushed" as const, refType: "branch" as const, commitFrom: "a".repeat(40), commitTo: "b".repeat(40), ref: "main", commitTitle: "t" };

/** One event of each kind in `projectId`, by `authorId`: [issue, issue note, MR, MR note, snippet, push, commit note, plain]. */
function eventsOfEveryKind(projectId: number, authorId: number): NewEvent[] {
  return [
    newEvent(projectId, authorId, 1, { targetType: "Issue", targetId: 1, targetIid: 1, targetTitle: "i" }),
    // A body quoting another noteable type's JSON does not change what the note is about.
    newEvent(projectId, authorId, 2, { action: "commented", targetType: "Note", targetId: 1, note: note("Issue", '"noteableType":"Snippet"') }),
    newEvent(projectId, authorId, 3, { targetType: "MergeRequest", targetId: 1, targetIid: 1, targetTitle: "m" }),
    newEvent(projectId, authorId, 4, { action: "commented", targetType: "Note", targetId: 2, note: note("MergeRequest") }),
    newEvent(projectId, authorId, 5, { targetType: "Snippet", targetId: 1, targetTitle: "s" }),
    newEvent(projectId, authorId, 6, { action: "pushed", push }),
    newEvent(projectId, authorId, 7, { action: "commented", targetType: "Note", targetId: 3, note: note("Commit") }),
    newEvent(projectId, authorId, 8),
  ];
}

export function eventFeatureTests(ctx: SuiteContext): void {
  const setFeatures = (projectId: number, features: Partial<ProjectFeatures>) => ctx.store.projects.update(projectId, { features });

  it("events.list - project feed: a disabled feature's events are listed to no one, administrators included", async () => {
    const w = await eventWorld(ctx.store);
    const ids = (await insertAll(ctx.store, eventsOfEveryKind(w.pub.id, w.author.id))).map((e) => e.id);
    const feed = { kind: "project", projectId: w.pub.id } as const;
    expect(await feedIds(ctx.store, { feed, viewer: null, sort: "asc" })).toEqual(ids);
    await setFeatures(w.pub.id, { issues: "disabled", mergeRequests: "disabled" });
    const [, , , , snippet, pushed, commitNote, plain] = ids;
    expect(await feedIds(ctx.store, { feed, viewer: as(w.admin), sort: "asc" })).toEqual([snippet, pushed, commitNote, plain]);
    await setFeatures(w.pub.id, { snippets: "disabled", repository: "disabled" });
    expect(await feedIds(ctx.store, { feed, viewer: as(w.member), sort: "asc" })).toEqual([plain]);
    const page = await ctx.store.activity.events.list({ feed, viewer: null, now: at(0), sort: "asc" }, { kind: "offset", page: 1, perPage: 1 });
    expect(page).toMatchObject({ total: 1, hasNext: false });
  });

  it("events.list - private features: members at the minimum level (Reporter for merge requests, Guest otherwise); others not", async () => {
    const w = await eventWorld(ctx.store);
    const ids = (await insertAll(ctx.store, eventsOfEveryKind(w.pub.id, w.author.id))).map((e) => e.id);
    await setFeatures(w.pub.id, { issues: "private", mergeRequests: "private", snippets: "private", repository: "private" });
    const plain = ids[7];
    for (const feed of [{ kind: "project", projectId: w.pub.id } as const, { kind: "author", authorId: w.author.id } as const]) {
      expect(await feedIds(ctx.store, { feed, viewer: null, sort: "asc" })).toEqual([plain]);
      expect(await feedIds(ctx.store, { feed, viewer: as(w.outsider), sort: "asc" })).toEqual([plain]);
      // member: Reporter of pub.
      expect(await feedIds(ctx.store, { feed, viewer: as(w.member), sort: "asc" })).toEqual(ids);
    }
    await setFeatures(w.pub.id, DEFAULT_PROJECT_FEATURES);
    expect(await feedIds(ctx.store, { feed: { kind: "author", authorId: w.author.id }, viewer: null, sort: "asc" })).toEqual(ids);
  });

  it("events.list - a Guest does not see a private merge requests feature's events; the private project's repository needs Reporter", async () => {
    const w = await eventWorld(ctx.store);
    // member: Guest of priv.
    const ids = (await insertAll(ctx.store, eventsOfEveryKind(w.priv.id, w.author.id))).map((e) => e.id);
    await setFeatures(w.priv.id, { mergeRequests: "private", repository: "private" });
    const [issue, issueNote, , , snippet, , , plain] = ids;
    for (const feed of [{ kind: "project", projectId: w.priv.id } as const, { kind: "author", authorId: w.author.id } as const, { kind: "authorized", userId: w.member.id } as const]) {
      expect(await feedIds(ctx.store, { feed, viewer: as(w.member), sort: "asc" })).toEqual([issue, issueNote, snippet, plain]);
    }
    expect(await feedIds(ctx.store, { feed: { kind: "authorized", userId: w.author.id }, viewer: as(w.author), sort: "asc" })).toEqual(ids);
  });

  it("events.list - author feed totals count only the listed events", async () => {
    const w = await eventWorld(ctx.store);
    await insertAll(ctx.store, eventsOfEveryKind(w.pub.id, w.author.id));
    await setFeatures(w.pub.id, { issues: "disabled" });
    const page = await ctx.store.activity.events.list({ feed: { kind: "author", authorId: w.author.id }, viewer: null, now: at(0), sort: "asc" }, { kind: "offset", page: 1, perPage: 2 });
    expect(page).toMatchObject({ total: 6, hasNext: true });
  });
}
