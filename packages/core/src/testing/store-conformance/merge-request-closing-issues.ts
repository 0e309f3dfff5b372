/** Conformance: `mergeRequestClosingIssues` (the issues each merge request closes) and `reviews.listMergeRequests` by `closesIssueId`. */
import { expect, it } from "vitest";
import type { Project, User } from "../../accounts/types.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

export function mergeRequestClosingIssueTests(ctx: SuiteContext): void {
  const setup = async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const other = await makeProject(ctx.store, group);
    return { user, project, other };
  };
  const issue = (project: Project, user: User, title = "issue") => ctx.store.activity.issues.create({ projectId: project.id, title, description: "", confidential: false, authorId: user.id }, T0);
  let branch = 0;
  const mr = (project: Project, user: User, minutes = 0) => {
    branch += 1;
    return ctx.store.activity.mergeRequests.create({ projectId: project.id, authorId: user.id, title: "MR", description: "", sourceBranch: `topic-${branch}`, targetBranch: "main" }, at(minutes));
  };

  it("mergeRequestClosingIssues.replace - replaces the merge request's set (repeats once, ascending); unknown issues are skipped; empty clears; an unknown merge request writes nothing", async () => {
    const { user, project } = await setup();
    const [a, b, c] = [await issue(project, user, "a"), await issue(project, user, "b"), await issue(project, user, "c")];
    const m = await mr(project, user);
    const rel = ctx.store.mergeRequestClosingIssues;
    await rel.replace(m.id, [c.id, a.id, c.id, c.id + 10_000]);
    expect(await rel.issueIdsOf(m.id)).toEqual([a.id, c.id]);
    await rel.replace(m.id, [b.id]);
    expect(await rel.issueIdsOf(m.id)).toEqual([b.id]);
    await rel.replace(m.id, []);
    expect(await rel.issueIdsOf(m.id)).toEqual([]);
    await rel.replace(m.id + 10_000, [a.id]);
    expect(await rel.issueIdsOf(m.id + 10_000)).toEqual([]);
  });

  it("mergeRequestClosingIssues.replace - inside a transaction that rolls back, nothing is written", async () => {
    const { user, project } = await setup();
    const a = await issue(project, user);
    const m = await mr(project, user);
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.mergeRequestClosingIssues.replace(m.id, [a.id]);
        expect(await tx.mergeRequestClosingIssues.issueIdsOf(m.id)).toEqual([a.id]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await ctx.store.mergeRequestClosingIssues.issueIdsOf(m.id)).toEqual([]);
  });

  it("mergeRequestClosingIssues.replace - two racing callers with the same set leave each pair once", async () => {
    const { user, project } = await setup();
    const [a, b] = [await issue(project, user, "a"), await issue(project, user, "b")];
    const m = await mr(project, user);
    await Promise.all([ctx.store.mergeRequestClosingIssues.replace(m.id, [a.id, b.id]), ctx.store.mergeRequestClosingIssues.replace(m.id, [b.id, a.id])]);
    expect(await ctx.store.mergeRequestClosingIssues.issueIdsOf(m.id)).toEqual([a.id, b.id]);
    expect((await ctx.store.mergeRequestClosingIssues.countsByProject([a.id])).get(a.id)).toEqual([{ projectId: project.id, count: 1 }]);
  });

  it("mergeRequestClosingIssues.countsByProject - per issue, its closing merge requests counted per merge-request project (ascending); every asked id is a key", async () => {
    const { user, project, other } = await setup();
    const [a, b, lone] = [await issue(project, user, "a"), await issue(project, user, "b"), await issue(project, user, "lone")];
    const [m1, m2, m3] = [await mr(project, user), await mr(project, user, 1), await mr(other, user)];
    await ctx.store.mergeRequestClosingIssues.replace(m1.id, [a.id, b.id]);
    await ctx.store.mergeRequestClosingIssues.replace(m2.id, [a.id]);
    await ctx.store.mergeRequestClosingIssues.replace(m3.id, [a.id]);
    const counts = await ctx.store.mergeRequestClosingIssues.countsByProject([a.id, b.id, lone.id, lone.id + 10_000]);
    expect([...counts.keys()].sort((x, y) => x - y)).toEqual([a.id, b.id, lone.id, lone.id + 10_000]);
    expect(counts.get(a.id)).toEqual([...[{ projectId: project.id, count: 2 }, { projectId: other.id, count: 1 }].sort((x, y) => x.projectId - y.projectId)]);
    expect(counts.get(b.id)).toEqual([{ projectId: project.id, count: 1 }]);
    expect(counts.get(lone.id)).toEqual([]);
    expect(counts.get(lone.id + 10_000)).toEqual([]);
    expect((await ctx.store.mergeRequestClosingIssues.countsByProject([])).size).toBe(0);
  });

  it("mergeRequestClosingIssues - rows go with their merge request, their issue and their project", async () => {
    const { user, project, other } = await setup();
    const [a, b] = [await issue(project, user, "a"), await issue(project, user, "b")];
    const [m1, m2, m3] = [await mr(project, user), await mr(project, user, 1), await mr(other, user)];
    for (const m of [m1, m2, m3]) await ctx.store.mergeRequestClosingIssues.replace(m.id, [a.id, b.id]);
    expect(await ctx.store.reviews.removeMergeRequest(m1.id)).toBe(true);
    expect(await ctx.store.mergeRequestClosingIssues.issueIdsOf(m1.id)).toEqual([]);
    expect((await ctx.store.mergeRequestClosingIssues.countsByProject([a.id])).get(a.id)).toEqual([...[{ projectId: project.id, count: 1 }, { projectId: other.id, count: 1 }].sort((x, y) => x.projectId - y.projectId)]);
    expect(await ctx.store.activity.issueDetails.removeIssue(a.id)).toBe(true);
    expect(await ctx.store.mergeRequestClosingIssues.issueIdsOf(m2.id)).toEqual([b.id]);
    expect(await ctx.store.projects.remove(other.id)).not.toBeNull();
    expect((await ctx.store.mergeRequestClosingIssues.countsByProject([b.id])).get(b.id)).toEqual([{ projectId: project.id, count: 1 }]);
    expect(await ctx.store.projects.remove(project.id)).not.toBeNull();
    expect((await ctx.store.mergeRequestClosingIssues.countsByProject([b.id])).get(b.id)).toEqual([]);
  });

  it("reviews.listMergeRequests - closesIssueId keeps the merge requests that close the issue, whatever their state, with the other filters", async () => {
    const { user, project } = await setup();
    const [a, b] = [await issue(project, user, "a"), await issue(project, user, "b")];
    const [m1, m2, m3] = [await mr(project, user), await mr(project, user, 1), await mr(project, user, 2)];
    await ctx.store.mergeRequestClosingIssues.replace(m1.id, [a.id]);
    await ctx.store.mergeRequestClosingIssues.replace(m2.id, [b.id]);
    await ctx.store.mergeRequestClosingIssues.replace(m3.id, [a.id, b.id]);
    await ctx.store.reviews.markMerged(m3.id, { mergeUserId: user.id, mergeCommitSha: "a".repeat(40), now: at(3) });
    const list = (filter: { closesIssueId: number; state?: "opened" | "merged" }) => ctx.store.reviews.listMergeRequests({ projectIds: [project.id], orderBy: "created_at", sort: "desc", ...filter }, { kind: "offset", page: 1, perPage: 20 });
    const closingA = await list({ closesIssueId: a.id });
    expect(closingA.items.map((m) => m.id)).toEqual([m3.id, m1.id]);
    expect(closingA.total).toBe(2);
    expect(closingA.items[0]).toMatchObject({ state: "merged", mergeCommitSha: "a".repeat(40) });
    expect((await list({ closesIssueId: b.id, state: "opened" })).items.map((m) => m.id)).toEqual([m2.id]);
    expect((await list({ closesIssueId: b.id + 10_000 })).items).toEqual([]);
  });
}
