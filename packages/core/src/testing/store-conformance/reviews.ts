/** Conformance: `reviews` (merge-request merges, filtered lists, labels, removal; snippet descriptions, edits, lists, removal). */
import { expect, it } from "vitest";
import type { MergeRequestListFilter } from "../../ports/review-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 20) => ({ kind: "offset", page: n, perPage }) as const;

export function reviewTests(ctx: SuiteContext): void {
  const setup = async () => {
    const author = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const a = await makeProject(ctx.store, group);
    const b = await makeProject(ctx.store, group);
    const mr = (projectId: number, title: string, source: string, now = T0, extra: { description?: string; authorId?: number; target?: string } = {}) =>
      ctx.store.activity.mergeRequests.create({ projectId, title, description: extra.description ?? "", authorId: extra.authorId ?? author.id, sourceBranch: source, targetBranch: extra.target ?? "main" }, now);
    const base = (projectIds: number[]): MergeRequestListFilter => ({ projectIds, orderBy: "created_at", sort: "desc" });
    const titles = async (filter: MergeRequestListFilter) => (await ctx.store.reviews.listMergeRequests(filter, page(1))).items.map((m) => m.title);
    return { author, other, a, b, mr, base, titles, r: ctx.store.reviews };
  };

  it("reviews.findMergeRequest - a new merge request has no merge user or merge commit", async () => {
    const { a, mr, r } = await setup();
    const one = await mr(a.id, "one", "f1");
    expect(await r.findMergeRequest(one.id)).toEqual({ ...one, mergeUserId: null, mergeCommitSha: null });
    expect(await r.findMergeRequest(one.id + 100_000)).toBeNull();
  });

  it("reviews.markMerged - only an open merge request is merged; it keeps who merged it and the commit", async () => {
    const { author, a, mr, r } = await setup();
    const one = await mr(a.id, "one", "f1");
    const sha = "a".repeat(40);
    const merged = await r.markMerged(one.id, { mergeUserId: author.id, mergeCommitSha: sha, now: at(5) });
    expect(merged).toMatchObject({ state: "merged", mergedAt: at(5), updatedAt: at(5), mergeUserId: author.id, mergeCommitSha: sha });
    expect(await r.markMerged(one.id, { mergeUserId: author.id, mergeCommitSha: "b".repeat(40), now: at(6) })).toBeNull();
    expect((await r.findMergeRequest(one.id))?.mergeCommitSha).toBe(sha);
    const closed = await mr(a.id, "closed", "f2");
    await ctx.store.activity.mergeRequests.update(closed.id, { state: "closed", closedAt: T0 });
    expect(await r.markMerged(closed.id, { mergeUserId: author.id, mergeCommitSha: sha, now: at(6) })).toBeNull();
  });

  it("reviews.listMergeRequests - every filter narrows; projects outside projectIds never show; order and ties by id", async () => {
    const { other, a, b, mr, base, titles } = await setup();
    await mr(a.id, "Alpha fix", "f1", at(1), { description: "touches the PARSER" });
    await mr(a.id, "beta", "f2", at(2), { authorId: other.id, target: "stable" });
    await mr(a.id, "gamma 100%", "f3", at(3));
    await mr(b.id, "elsewhere", "f1", at(4));
    expect(await titles(base([a.id]))).toEqual(["gamma 100%", "beta", "Alpha fix"]);
    expect(await titles({ ...base([a.id]), sort: "asc", orderBy: "title" })).toEqual(["Alpha fix", "beta", "gamma 100%"]);
    expect(await titles({ ...base([a.id]), authorId: other.id })).toEqual(["beta"]);
    expect(await titles({ ...base([a.id]), sourceBranch: "f1" })).toEqual(["Alpha fix"]);
    expect(await titles({ ...base([a.id]), targetBranch: "stable" })).toEqual(["beta"]);
    expect(await titles({ ...base([a.id]), search: "parser" })).toEqual(["Alpha fix"]);
    expect(await titles({ ...base([a.id]), search: "0%" })).toEqual(["gamma 100%"]);
    expect(await titles({ ...base([a.id]), search: "_" })).toEqual([]);
    expect(await titles({ ...base([a.id]), iids: [2, 3] })).toEqual(["gamma 100%", "beta"]);
    expect(await titles({ ...base([a.id]), iids: [] })).toEqual([]);
    expect(await titles({ ...base([a.id]), createdAfter: at(2), createdBefore: at(2) })).toEqual(["beta"]);
    expect(await titles({ ...base([a.id]), state: "closed" })).toEqual([]);
    expect(await titles(base([]))).toEqual([]);
    expect(await titles(base([a.id, b.id]))).toHaveLength(4);
    const first = await ctx.store.reviews.listMergeRequests(base([a.id]), page(1, 2));
    expect(first).toMatchObject({ total: 3, hasNext: true });
  });

  it("reviews.setMergeRequestLabels / mergeRequestLabelNames / labels filter - replaces the set; none and any", async () => {
    const { a, mr, base, titles, r } = await setup();
    const one = await mr(a.id, "one", "f1");
    const two = await mr(a.id, "two", "f2");
    const bug = await ctx.store.imports.labels.create({ projectId: a.id, name: "bug", color: "#ff0000", description: "" }, T0);
    const ui = await ctx.store.imports.labels.create({ projectId: a.id, name: "UI", color: "#00ff00", description: "" }, T0);
    if (bug === null || ui === null) throw new Error("labels refused");
    await r.setMergeRequestLabels(one.id, [bug.id, ui.id, bug.id]);
    expect(await r.mergeRequestLabelNames([one.id, two.id])).toEqual(new Map([[one.id, ["UI", "bug"]], [two.id, []]]));
    expect(await titles({ ...base([a.id]), labels: ["bug", "UI"] })).toEqual(["one"]);
    expect(await titles({ ...base([a.id]), labels: "none" })).toEqual(["two"]);
    expect(await titles({ ...base([a.id]), labels: "any" })).toEqual(["one"]);
    await r.setMergeRequestLabels(one.id, [ui.id]);
    expect((await r.mergeRequestLabelNames([one.id])).get(one.id)).toEqual(["UI"]);
    await r.setMergeRequestLabels(one.id, []);
    expect((await r.mergeRequestLabelNames([one.id])).get(one.id)).toEqual([]);
  });

  it("reviews.findOpenMergeRequest / updateMergeRequest - open ones by branches, except one id; edits keep the rest", async () => {
    const { a, mr, r } = await setup();
    const one = await mr(a.id, "one", "f1");
    expect((await r.findOpenMergeRequest(a.id, "f1", "main"))?.id).toBe(one.id);
    expect(await r.findOpenMergeRequest(a.id, "f1", "main", one.id)).toBeNull();
    expect(await r.findOpenMergeRequest(a.id, "f1", "other")).toBeNull();
    const edited = await r.updateMergeRequest(one.id, { description: "now", targetBranch: "other", updatedAt: at(9) });
    expect(edited).toMatchObject({ title: "one", description: "now", targetBranch: "other", updatedAt: at(9) });
    expect(await r.updateMergeRequest(one.id + 100_000, { updatedAt: at(9) })).toBeNull();
  });

  it("reviews.removeMergeRequest - removes it with its notes and label links", async () => {
    const { author, a, mr, r } = await setup();
    const one = await mr(a.id, "one", "f1");
    await ctx.store.activity.notes.create({ projectId: a.id, noteableType: "MergeRequest", noteableId: one.id, authorId: author.id, body: "hi", system: false }, T0);
    const bug = await ctx.store.imports.labels.create({ projectId: a.id, name: "bug", color: "#ff0000", description: "" }, T0);
    if (bug === null) throw new Error("label refused");
    await r.setMergeRequestLabels(one.id, [bug.id]);
    expect(await r.removeMergeRequest(one.id)).toBe(true);
    expect(await r.removeMergeRequest(one.id)).toBe(false);
    expect(await ctx.store.activity.mergeRequests.findById(one.id)).toBeNull();
    expect(await ctx.store.activity.notes.listByNoteable("MergeRequest", one.id)).toEqual([]);
    expect(await ctx.store.imports.labels.labelsOf("MergeRequest", one.id)).toEqual([]);
  });

  it("reviews snippets - description defaults to empty; updateSnippet edits; listSnippets by project, author, visibility newest first; removeSnippet", async () => {
    const { author, other, a, r } = await setup();
    const snip = (projectId: number | null, title: string, visibility: "private" | "internal" | "public", authorId = author.id) =>
      ctx.store.activity.snippets.create({ projectId, authorId, title, fileName: "a.txt", content: "x", visibility }, T0);
    const one = await snip(null, "one", "private");
    const two = await snip(null, "two", "public", other.id);
    const three = await snip(a.id, "three", "internal");
    expect(await r.findSnippet(one.id)).toEqual({ ...one, description: "" });
    await r.setSnippetDescription(one.id, "described");
    expect((await r.findSnippet(one.id))?.description).toBe("described");
    const edited = await r.updateSnippet(one.id, { title: "uno", visibility: "internal", fileName: "b.md", content: "y", updatedAt: at(3) });
    expect(edited).toMatchObject({ title: "uno", visibility: "internal", fileName: "b.md", content: "y", description: "described", updatedAt: at(3) });
    expect(await r.updateSnippet(one.id + 100_000, { updatedAt: at(3) })).toBeNull();
    const ids = async (filter: Parameters<typeof r.listSnippets>[0]) => (await r.listSnippets(filter, page(1))).items.map((s) => s.id).filter((id) => [one.id, two.id, three.id].includes(id));
    expect(await ids({ projectId: null })).toEqual([two.id, one.id]);
    expect(await ids({ projectId: null, authorId: author.id })).toEqual([one.id]);
    expect(await ids({ projectId: null, visibilities: ["public"] })).toEqual([two.id]);
    expect(await ids({ projectId: null, visibilities: [] })).toEqual([]);
    expect(await ids({ projectId: a.id })).toEqual([three.id]);
    await ctx.store.activity.notes.create({ projectId: null, noteableType: "Snippet", noteableId: one.id, authorId: author.id, body: "hi", system: false }, T0);
    expect(await r.removeSnippet(one.id)).toBe(true);
    expect(await r.removeSnippet(one.id)).toBe(false);
    expect(await r.findSnippet(one.id)).toBeNull();
    expect(await ctx.store.activity.notes.listByNoteable("Snippet", one.id)).toEqual([]);
  });
}
