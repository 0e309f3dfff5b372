/** Conformance: the activity repositories (issues, merge requests, milestones, snippets, notes). */
import { expect, it } from "vitest";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 2) => ({ kind: "offset", page: n, perPage }) as const;

export function activityRecordTests(ctx: SuiteContext): void {
  const setup = async () => {
    const author = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    return { author, a: await makeProject(ctx.store, group), b: await makeProject(ctx.store, group) };
  };

  it("issues.create - iids count from 1 in each project, ids are global", async () => {
    const { author, a, b } = await setup();
    const make = (projectId: number, title: string) => ctx.store.activity.issues.create({ projectId, title, description: "", confidential: false, authorId: author.id }, T0);
    const a1 = await make(a.id, "one");
    const a2 = await make(a.id, "two");
    const b1 = await make(b.id, "other");
    expect([a1.iid, a2.iid, b1.iid]).toEqual([1, 2, 1]);
    expect(new Set([a1.id, a2.id, b1.id]).size).toBe(3);
    expect(a1).toEqual({ id: a1.id, projectId: a.id, iid: 1, title: "one", description: "", confidential: false, state: "opened", authorId: author.id, createdAt: T0, updatedAt: T0, closedAt: null, dueDate: null, discussionLocked: null, importedFrom: "none" });
  });

  it("issues.create / notes.create - an import's source is kept as importedFrom and read back; records made here read none", async () => {
    const { author, a } = await setup();
    const imported = await ctx.store.activity.issues.create({ projectId: a.id, title: "from afar", description: "", confidential: false, authorId: author.id, iid: 7, importedFrom: "extforge" }, T0);
    const local = await ctx.store.activity.issues.create({ projectId: a.id, title: "here", description: "", confidential: false, authorId: author.id }, T0);
    expect([imported.importedFrom, local.importedFrom]).toEqual(["extforge", "none"]);
    expect((await ctx.store.activity.issues.findById(imported.id))?.importedFrom).toBe("extforge");
    expect((await ctx.store.activity.issues.findById(local.id))?.importedFrom).toBe("none");
    const note = await ctx.store.activity.notes.create({ projectId: a.id, noteableType: "Issue", noteableId: imported.id, authorId: author.id, body: "b", system: false, importedFrom: "extserver" }, T0);
    const plain = await ctx.store.activity.notes.create({ projectId: a.id, noteableType: "Issue", noteableId: imported.id, authorId: author.id, body: "c", system: false }, T0);
    expect([note.importedFrom, plain.importedFrom]).toEqual(["extserver", "none"]);
    expect((await ctx.store.activity.notes.listByNoteable("Issue", imported.id)).map((n) => n.importedFrom)).toEqual(["extserver", "none"]);
  });

  it("issues.findByIid / findById - find the issue, null otherwise", async () => {
    const { author, a, b } = await setup();
    const issue = await ctx.store.activity.issues.create({ projectId: a.id, title: "t", description: "d", confidential: true, authorId: author.id }, T0);
    expect(await ctx.store.activity.issues.findByIid(a.id, 1)).toEqual(issue);
    expect(await ctx.store.activity.issues.findById(issue.id)).toEqual(issue);
    expect(await ctx.store.activity.issues.findByIid(b.id, 1)).toBeNull();
    expect(await ctx.store.activity.issues.findById(issue.id + 1000)).toBeNull();
  });

  it("issues.update - applies the patch (due date and discussion lock too) and returns the row; null for an unknown id", async () => {
    const { author, a } = await setup();
    const issue = await ctx.store.activity.issues.create({ projectId: a.id, title: "t", description: "", confidential: false, authorId: author.id }, T0);
    const patch = { state: "closed" as const, closedAt: at(5), updatedAt: at(5), confidential: true, title: "renamed" };
    expect(await ctx.store.activity.issues.update(issue.id, patch)).toEqual({ ...issue, ...patch });
    expect(await ctx.store.activity.issues.update(issue.id, { state: "opened", closedAt: null })).toEqual({ ...issue, ...patch, state: "opened", closedAt: null });
    expect(await ctx.store.activity.issues.update(issue.id + 1000, { title: "x" })).toBeNull();
    const due = await ctx.store.activity.issues.create({ projectId: a.id, title: "due", description: "", confidential: false, authorId: author.id, dueDate: "2024-06-30" }, T0);
    expect((await ctx.store.activity.issues.findById(due.id))?.dueDate).toBe("2024-06-30");
    expect((await ctx.store.activity.issues.update(due.id, { dueDate: "2025-01-02" }))?.dueDate).toBe("2025-01-02");
    expect((await ctx.store.activity.issues.update(due.id, { dueDate: null }))?.dueDate).toBeNull();
    expect(due.discussionLocked).toBeNull();
    expect((await ctx.store.activity.issues.update(due.id, { discussionLocked: true }))?.discussionLocked).toBe(true);
    expect((await ctx.store.activity.issues.findById(due.id))?.discussionLocked).toBe(true);
    expect((await ctx.store.activity.issues.update(due.id, { discussionLocked: false }))?.discussionLocked).toBe(false);
  });

  it("issues.listByProject - the project's issues by iid, offset pages with totals", async () => {
    const { author, a, b } = await setup();
    for (const projectId of [a.id, b.id, a.id, a.id]) await ctx.store.activity.issues.create({ projectId, title: "t", description: "", confidential: false, authorId: author.id }, T0);
    const first = await ctx.store.activity.issues.listByProject(a.id, page(1));
    expect(first.items.map((i) => i.iid)).toEqual([1, 2]);
    expect(first).toMatchObject({ total: 3, hasNext: true });
    const second = await ctx.store.activity.issues.listByProject(a.id, page(2));
    expect(second.items.map((i) => i.iid)).toEqual([3]);
    expect(second).toMatchObject({ total: 3, hasNext: false });
  });

  it("mergeRequests - own iid sequence per project; update and lookups", async () => {
    const { author, a } = await setup();
    await ctx.store.activity.issues.create({ projectId: a.id, title: "issue", description: "", confidential: false, authorId: author.id }, T0);
    const input = { projectId: a.id, title: "MR", description: "", authorId: author.id, sourceBranch: "feature", targetBranch: "main" };
    const mr = await ctx.store.activity.mergeRequests.create(input, T0);
    expect(mr).toEqual({ id: mr.id, ...input, iid: 1, state: "opened", createdAt: T0, updatedAt: T0, mergedAt: null, closedAt: null });
    expect((await ctx.store.activity.mergeRequests.create(input, T0)).iid).toBe(2);
    const merged = await ctx.store.activity.mergeRequests.update(mr.id, { state: "merged", mergedAt: at(1), updatedAt: at(1) });
    expect(merged).toEqual({ ...mr, state: "merged", mergedAt: at(1), updatedAt: at(1) });
    expect(await ctx.store.activity.mergeRequests.findByIid(a.id, 1)).toEqual(merged);
    expect(await ctx.store.activity.mergeRequests.findById(mr.id)).toEqual(merged);
    expect(await ctx.store.activity.mergeRequests.update(mr.id + 1000, { title: "x" })).toBeNull();
    expect((await ctx.store.activity.mergeRequests.listByProject(a.id, page(1, 10))).items.map((m) => m.iid)).toEqual([1, 2]);
  });

  it("milestones.create - null for a title the project already has; other projects may reuse it", async () => {
    const { a, b } = await setup();
    const first = await ctx.store.activity.milestones.create({ projectId: a.id, title: "v1", description: "" }, T0);
    expect(first).toEqual({ id: first!.id, projectId: a.id, iid: 1, title: "v1", description: "", state: "active", startDate: null, dueDate: null, createdAt: T0, updatedAt: T0 });
    expect(await ctx.store.activity.milestones.create({ projectId: a.id, title: "v1", description: "again" }, T0)).toBeNull();
    expect(await ctx.store.activity.milestones.create({ projectId: b.id, title: "v1", description: "" }, T0)).toMatchObject({ iid: 1 });
    expect(await ctx.store.activity.milestones.create({ projectId: a.id, title: "V1", description: "" }, T0)).toMatchObject({ iid: 2 });
  });

  it("milestones.update - state changes; a title taken in the project → null", async () => {
    const { a } = await setup();
    const v1 = await ctx.store.activity.milestones.create({ projectId: a.id, title: "v1", description: "" }, T0);
    await ctx.store.activity.milestones.create({ projectId: a.id, title: "v2", description: "" }, T0);
    expect(await ctx.store.activity.milestones.update(v1!.id, { state: "closed", updatedAt: at(2) })).toEqual({ ...v1, state: "closed", updatedAt: at(2) });
    expect(await ctx.store.activity.milestones.update(v1!.id, { title: "v2" })).toBeNull();
    expect(await ctx.store.activity.milestones.findByIid(a.id, 1)).toMatchObject({ title: "v1", state: "closed" });
    expect(await ctx.store.activity.milestones.findById(v1!.id + 1000)).toBeNull();
  });

  it("milestones - start and due dates are stored on create, changed or cleared on update, and read back", async () => {
    const { a } = await setup();
    const repo = ctx.store.activity.milestones;
    const made = await repo.create({ projectId: a.id, title: "dated", description: "", startDate: "2024-04-01", dueDate: "2024-06-30" }, T0);
    expect(made).toMatchObject({ startDate: "2024-04-01", dueDate: "2024-06-30" });
    expect(await repo.findById(made!.id)).toEqual(made);
    expect(await repo.update(made!.id, { dueDate: "2024-07-31" })).toMatchObject({ startDate: "2024-04-01", dueDate: "2024-07-31" });
    expect(await repo.update(made!.id, { startDate: null })).toMatchObject({ startDate: null, dueDate: "2024-07-31" });
    expect(await repo.findByIid(a.id, made!.iid)).toMatchObject({ startDate: null, dueDate: "2024-07-31" });
  });

  it("snippets.create - project and personal snippets round-trip", async () => {
    const { author, a } = await setup();
    const input = { projectId: a.id, authorId: author.id, title: "s", fileName: "a.txt", content: "hello", visibility: "internal" as const };
    const snippet = await ctx.store.activity.snippets.create(input, T0);
    expect(snippet).toEqual({ id: snippet.id, ...input, importedFrom: "none", createdAt: T0, updatedAt: T0 });
    const gist = await ctx.store.activity.snippets.create({ ...input, projectId: null, importedFrom: "extforge" }, T0);
    expect((await ctx.store.activity.snippets.findById(gist.id))?.importedFrom).toBe("extforge");
    const personal = await ctx.store.activity.snippets.create({ ...input, projectId: null, visibility: "public" }, T0);
    expect(await ctx.store.activity.snippets.findById(personal.id)).toEqual(personal);
    expect(await ctx.store.activity.snippets.findById(personal.id + 1000)).toBeNull();
  });

  it("notes.create / listByNoteable - notes of one noteable, oldest first", async () => {
    const { author, a } = await setup();
    const issue = await ctx.store.activity.issues.create({ projectId: a.id, title: "t", description: "", confidential: false, authorId: author.id }, T0);
    const note = (body: string, system = false, noteableType: "Issue" | "MergeRequest" = "Issue") =>
      ctx.store.activity.notes.create({ projectId: a.id, noteableType, noteableId: issue.id, authorId: author.id, body, system }, at(1));
    const first = await note("first");
    await note("elsewhere", false, "MergeRequest");
    const second = await note("closed", true);
    expect(first).toEqual({ id: first.id, projectId: a.id, noteableType: "Issue", noteableId: issue.id, authorId: author.id, body: "first", system: false, createdAt: at(1), updatedAt: at(1), discussionId: first.discussionId, type: null, position: null, commitId: null, resolvedAt: null, resolvedById: null, importedFrom: "none" });
    expect(await ctx.store.activity.notes.listByNoteable("Issue", issue.id)).toEqual([first, second]);
    expect(await ctx.store.activity.notes.findById(second.id)).toEqual(second);
  });

  if (ctx.options.concurrency !== false) {
    it("issues.create - racing creates in one project get distinct, consecutive iids", async () => {
      const { author, a } = await setup();
      const issues = await Promise.all(
        Array.from({ length: 8 }, (_, i) => ctx.store.activity.issues.create({ projectId: a.id, title: `r${i}`, description: "", confidential: false, authorId: author.id }, T0)),
      );
      expect(issues.map((issue) => issue.iid).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });
  }
}
