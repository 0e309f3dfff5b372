/** Conformance: `discussions` (notes grouped by discussion id, types, positions, resolution) and the discussion fields of `activity.notes`. */
import { expect, it } from "vitest";
import type { DiffPosition } from "../../activity/types.js";
import type { NewNote } from "../../ports/activity-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 20) => ({ kind: "offset", page: n, perPage }) as const;
const D1 = "1".repeat(40);
const D2 = "2".repeat(40);
const POSITION: DiffPosition = {
  baseSha: "a".repeat(40),
  startSha: "b".repeat(40),
  headSha: "c".repeat(40),
  positionType: "text",
  oldPath: "README.md",
  newPath: "README.md",
  oldLine: null,
  newLine: 3,
  lineRange: { start: { lineCode: "x_2_3", type: "new", oldLine: null, newLine: 3 }, end: null },
};

export function discussionsTests(ctx: SuiteContext): void {
  const setup = async () => {
    const user = await makeUser(ctx.store);
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const mr = await ctx.store.activity.mergeRequests.create({ projectId: project.id, title: "t", description: "", authorId: user.id, sourceBranch: "f", targetBranch: "main" }, T0);
    const note = (extra: Partial<NewNote>, when = T0) =>
      ctx.store.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: "b", system: false, ...extra }, when);
    return { user, project, mr, note };
  };

  it("notes.create - a note without a discussion gets 40 hex digits of its own, type null, no position, unresolved", async () => {
    const { note } = await setup();
    const a = await note({});
    const b = await note({});
    expect(a.discussionId).toMatch(/^[0-9a-f]{40}$/);
    expect(b.discussionId).not.toBe(a.discussionId);
    expect(a).toMatchObject({ type: null, position: null, commitId: null, resolvedAt: null, resolvedById: null });
    expect(await ctx.store.activity.notes.findById(a.id)).toEqual(a);
  });

  it("notes.create - a diff note keeps its discussion, type, position (line range included) and commit", async () => {
    const { note } = await setup();
    const diff = await note({ discussionId: D1, type: "DiffNote", position: POSITION, commitId: "c".repeat(40) });
    expect(diff).toMatchObject({ discussionId: D1, type: "DiffNote", position: POSITION, commitId: "c".repeat(40) });
    expect(await ctx.store.activity.notes.findById(diff.id)).toEqual(diff);
  });

  it("discussions.page - one entry per discussion by its first note, notes oldest first; total counts discussions", async () => {
    const { note, mr, project, user } = await setup();
    const first = await note({ discussionId: D1, type: "DiscussionNote" }, T0);
    const single = await note({}, at(1));
    const second = await note({ discussionId: D2, type: "DiscussionNote" }, at(2));
    const reply = await note({ discussionId: D1, type: "DiscussionNote" }, at(3));
    const other = await ctx.store.activity.issues.create({ projectId: project.id, title: "i", description: "", confidential: false, authorId: user.id }, T0);
    await ctx.store.activity.notes.create({ projectId: project.id, noteableType: "Issue", noteableId: other.id, authorId: user.id, body: "x", system: false, discussionId: D1 }, T0);
    const all = await ctx.store.discussions.page("MergeRequest", mr.id, page(1));
    expect(all.items.map((d) => [d.id, d.notes.map((n) => n.id)])).toEqual([
      [D1, [first.id, reply.id]],
      [single.discussionId, [single.id]],
      [D2, [second.id]],
    ]);
    expect(all).toMatchObject({ total: 3, hasNext: false });
    const second2 = await ctx.store.discussions.page("MergeRequest", mr.id, page(2, 2));
    expect(second2.items.map((d) => d.id)).toEqual([D2]);
    expect(second2).toMatchObject({ total: 3, hasNext: false });
    expect((await ctx.store.discussions.page("MergeRequest", mr.id, page(1, 2))).hasNext).toBe(true);
  });

  it("discussions.notesOf - only that noteable's notes of the discussion; empty for an unknown id", async () => {
    const { note, mr } = await setup();
    const a = await note({ discussionId: D1, type: "DiscussionNote" });
    const b = await note({ discussionId: D1, type: "DiscussionNote" }, at(1));
    expect((await ctx.store.discussions.notesOf("MergeRequest", mr.id, D1)).map((n) => n.id)).toEqual([a.id, b.id]);
    expect(await ctx.store.discussions.notesOf("MergeRequest", mr.id + 1, D1)).toEqual([]);
    expect(await ctx.store.discussions.notesOf("MergeRequest", mr.id, D2)).toEqual([]);
  });

  it("discussions.setType - turns an individual note into a discussion note; false for an unknown note", async () => {
    const { note } = await setup();
    const a = await note({});
    expect(await ctx.store.discussions.setType(a.id, "DiscussionNote")).toBe(true);
    expect((await ctx.store.activity.notes.findById(a.id))?.type).toBe("DiscussionNote");
    expect(await ctx.store.discussions.setType(a.id + 1000, "DiscussionNote")).toBe(false);
  });

  it("discussions.setResolved - resolves unresolved notes only (the first resolver stays), unresolves; countUnresolved counts typed user notes", async () => {
    const { note, mr, user } = await setup();
    const other = await makeUser(ctx.store);
    const a = await note({ discussionId: D1, type: "DiscussionNote" });
    const b = await note({ discussionId: D1, type: "DiscussionNote" });
    await note({});
    await note({ type: "DiscussionNote", system: true });
    expect(await ctx.store.discussions.countUnresolved("MergeRequest", mr.id)).toBe(2);
    expect(await ctx.store.discussions.setResolved([a.id], { byId: user.id, at: at(5) })).toBe(1);
    expect(await ctx.store.discussions.setResolved([a.id, b.id], { byId: other.id, at: at(6) })).toBe(1);
    expect(await ctx.store.activity.notes.findById(a.id)).toMatchObject({ resolvedAt: at(5), resolvedById: user.id });
    expect(await ctx.store.activity.notes.findById(b.id)).toMatchObject({ resolvedAt: at(6), resolvedById: other.id });
    expect(await ctx.store.discussions.countUnresolved("MergeRequest", mr.id)).toBe(0);
    expect(await ctx.store.discussions.setResolved([a.id], null)).toBe(1);
    expect(await ctx.store.activity.notes.findById(a.id)).toMatchObject({ resolvedAt: null, resolvedById: null });
    expect(await ctx.store.discussions.countUnresolved("MergeRequest", mr.id)).toBe(1);
  });

  it("users.remove - a removed resolver leaves the notes resolved without a resolver", async () => {
    const { note } = await setup();
    const resolver = await makeUser(ctx.store);
    const a = await note({ discussionId: D1, type: "DiscussionNote" });
    await ctx.store.discussions.setResolved([a.id], { byId: resolver.id, at: at(1) });
    expect(await ctx.store.users.remove(resolver.id)).toBe(true);
    expect(await ctx.store.activity.notes.findById(a.id)).toMatchObject({ resolvedAt: at(1), resolvedById: null });
  });
}
