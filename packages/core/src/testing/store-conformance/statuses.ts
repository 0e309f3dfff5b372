/** Conformance: `statuses` (external pipelines and commit statuses) and `mergeRequestExtras` (people, settings, automatic merges). */
import { expect, it } from "vitest";
import type { NewCommitStatus } from "../../ports/statuses-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 20) => ({ kind: "offset", page: n, perPage }) as const;
const SHA = "a".repeat(40);
const OTHER_SHA = "b".repeat(40);

export function statusesTests(ctx: SuiteContext): void {
  const setup = async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const s = ctx.store.statuses;
    const status = (pipelineId: number, name: string, extra: Partial<NewCommitStatus> = {}): NewCommitStatus => ({ projectId: project.id, pipelineId, sha: SHA, ref: "main", name, status: "pending", description: null, targetUrl: null, coverage: null, authorId: user.id, startedAt: null, finishedAt: null, ...extra });
    return { user, group, project, s, status };
  };

  it("statuses.createPipeline - iids count from 1 per project; newestPipeline finds the newest of the sha, by ref and id", async () => {
    const { user, group, project, s } = await setup();
    const other = await makeProject(ctx.store, group);
    const first = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "main", userId: user.id }, T0);
    const second = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "feature", userId: user.id }, at(1));
    const elsewhere = await s.createPipeline({ projectId: other.id, sha: SHA, ref: "main", userId: user.id }, at(2));
    expect([first.iid, second.iid, elsewhere.iid]).toEqual([1, 2, 1]);
    expect(first).toMatchObject({ projectId: project.id, sha: SHA, ref: "main", status: "created", userId: user.id, createdAt: T0, startedAt: null, finishedAt: null });
    expect((await s.newestPipeline(project.id, { sha: SHA }))?.id).toBe(second.id);
    expect((await s.newestPipeline(project.id, { sha: SHA, ref: "main" }))?.id).toBe(first.id);
    expect(await s.newestPipeline(project.id, { sha: SHA, ref: "main", id: second.id })).toBeNull();
    expect(await s.newestPipeline(project.id, { sha: OTHER_SHA })).toBeNull();
    expect(await s.findPipeline(other.id, first.id)).toBeNull();
    expect(await s.findPipeline(project.id, first.id)).toEqual(first);
  });

  it("statuses.createStatus - a new status of a name retries the pipeline's older ones of that name; latestStatuses and listStatuses(all) show it", async () => {
    const { user, project, s, status } = await setup();
    const pipeline = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "main", userId: user.id }, T0);
    const old = await s.createStatus(status(pipeline.id, "test", { status: "failed", finishedAt: at(1) }), at(1));
    const lint = await s.createStatus(status(pipeline.id, "lint", { coverage: 12.5 }), at(2));
    const again = await s.createStatus(status(pipeline.id, "test"), at(3));
    expect(lint).toMatchObject({ retried: false, coverage: 12.5, createdAt: at(2) });
    expect((await s.latestStatuses(pipeline.id)).map((x) => x.id)).toEqual([lint.id, again.id]);
    expect((await s.listStatuses({ projectId: project.id, sha: SHA, all: false }, page(1))).items.map((x) => x.id)).toEqual([lint.id, again.id]);
    const all = await s.listStatuses({ projectId: project.id, sha: SHA, all: true, name: "test" }, page(1));
    expect(all.items.map((x) => [x.id, x.retried])).toEqual([
      [old.id, true],
      [again.id, false],
    ]);
    expect((await s.listStatuses({ projectId: project.id, sha: SHA, all: true, ref: "other" }, page(1))).items).toEqual([]);
  });

  it("statuses.findActiveStatus - only a pending or running status of that ref, name and author; updateStatus applies a transition", async () => {
    const { user, project, s, status } = await setup();
    const other = await makeUser(ctx.store);
    const pipeline = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "main", userId: user.id }, T0);
    const mine = await s.createStatus(status(pipeline.id, "ci"), at(1));
    expect((await s.findActiveStatus(pipeline.id, { ref: "main", name: "ci", authorId: user.id }))?.id).toBe(mine.id);
    expect(await s.findActiveStatus(pipeline.id, { ref: "main", name: "ci", authorId: other.id })).toBeNull();
    expect(await s.findActiveStatus(pipeline.id, { ref: "feature", name: "ci", authorId: user.id })).toBeNull();
    const done = await s.updateStatus(mine.id, { status: "success", startedAt: at(1), finishedAt: at(2), description: "ok" }, at(2));
    expect(done).toMatchObject({ status: "success", startedAt: at(1), finishedAt: at(2), description: "ok", updatedAt: at(2) });
    expect(await s.findActiveStatus(pipeline.id, { ref: "main", name: "ci", authorId: user.id })).toBeNull();
  });

  it("statuses.listPipelines - filters by sha, ref, states and user; orders with ties by id", async () => {
    const { user, project, s } = await setup();
    const other = await makeUser(ctx.store);
    const a = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "main", userId: user.id }, T0);
    const b = await s.createPipeline({ projectId: project.id, sha: OTHER_SHA, ref: "feature", userId: other.id }, at(1));
    await s.updatePipeline(b.id, { status: "success", startedAt: at(1), finishedAt: at(2) }, at(2));
    const ids = async (f: Partial<Parameters<typeof s.listPipelines>[0]>) => (await s.listPipelines({ projectId: project.id, orderBy: "id", sort: "desc", ...f }, page(1))).items.map((p) => p.id);
    expect(await ids({})).toEqual([b.id, a.id]);
    expect(await ids({ sort: "asc" })).toEqual([a.id, b.id]);
    expect(await ids({ sha: SHA })).toEqual([a.id]);
    expect(await ids({ ref: "feature" })).toEqual([b.id]);
    expect(await ids({ statuses: ["success", "failed"] })).toEqual([b.id]);
    expect(await ids({ statuses: [] })).toEqual([]);
    expect(await ids({ userId: user.id })).toEqual([a.id]);
    expect(await ids({ orderBy: "ref", sort: "asc" })).toEqual([b.id, a.id]);
  });

  it("statuses - a removed project takes its pipelines and statuses; a removed user leaves them without author", async () => {
    const { user, group, project, s, status } = await setup();
    const kept = await makeProject(ctx.store, group);
    const gone = await s.createPipeline({ projectId: project.id, sha: SHA, ref: "main", userId: user.id }, T0);
    await s.createStatus(status(gone.id, "ci"), T0);
    const stays = await s.createPipeline({ projectId: kept.id, sha: SHA, ref: "main", userId: user.id }, T0);
    await s.createStatus({ ...status(stays.id, "ci"), projectId: kept.id }, T0);
    await ctx.store.projects.remove(project.id);
    expect(await s.newestPipeline(project.id, { sha: SHA })).toBeNull();
    expect(await ctx.store.users.remove(user.id)).toBe(true);
    expect((await s.findPipeline(kept.id, stays.id))?.userId).toBeNull();
    expect((await s.latestStatuses(stays.id)).map((x) => x.authorId)).toEqual([null]);
  });

  const mrSetup = async () => {
    const { user, project } = await setup();
    const other = await makeUser(ctx.store);
    const mr = (source: string) => ctx.store.activity.mergeRequests.create({ projectId: project.id, title: source, description: "", authorId: user.id, sourceBranch: source, targetBranch: "main" }, T0);
    return { user, other, project, mr, x: ctx.store.mergeRequestExtras };
  };

  it("mergeRequestExtras.setAssignees / setReviewers - replace in the order given; unknown ids have empty extras", async () => {
    const { user, other, mr, x } = await mrSetup();
    const one = await mr("f1");
    await x.setAssignees(one.id, [other.id, user.id]);
    await x.setReviewers(one.id, [user.id]);
    await x.setForceRemoveSourceBranch(one.id, true);
    expect((await x.extras([one.id, one.id + 100_000])).get(one.id)).toEqual({ assigneeIds: [other.id, user.id], reviewerIds: [user.id], forceRemoveSourceBranch: true, autoMerge: null, milestoneId: null, discussionLocked: null, squash: false, squashCommitSha: null });
    expect((await x.extras([one.id + 100_000])).get(one.id + 100_000)).toEqual({ assigneeIds: [], reviewerIds: [], forceRemoveSourceBranch: false, autoMerge: null, milestoneId: null, discussionLocked: null, squash: false, squashCommitSha: null });
    await x.setAssignees(one.id, []);
    expect((await x.extras([one.id])).get(one.id)?.assigneeIds).toEqual([]);
    await ctx.store.users.remove(other.id);
    await x.setAssignees(one.id, [user.id]);
    expect((await x.extras([one.id])).get(one.id)).toMatchObject({ assigneeIds: [user.id], reviewerIds: [user.id] });
  });

  it("mergeRequestExtras.takeAutoMerge - clears only the automatic merge set for that sha, for one caller", async () => {
    const { user, mr, x } = await mrSetup();
    const one = await mr("f1");
    await x.setAutoMerge(one.id, { userId: user.id, sha: SHA, removeSourceBranch: true, createdAt: at(1) });
    expect((await x.extras([one.id])).get(one.id)?.autoMerge).toEqual({ userId: user.id, sha: SHA, removeSourceBranch: true, createdAt: at(1) });
    expect(await x.takeAutoMerge(one.id, OTHER_SHA)).toBe(false);
    const [a, b] = await Promise.all([x.takeAutoMerge(one.id, SHA), x.takeAutoMerge(one.id, SHA)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((await x.extras([one.id])).get(one.id)?.autoMerge).toBeNull();
  });

  it("mergeRequestExtras.setDiscussionLocked - null until set; true and false are kept apart from the other settings", async () => {
    const { mr, x } = await mrSetup();
    const one = await mr("f1");
    expect((await x.extras([one.id])).get(one.id)?.discussionLocked).toBeNull();
    await x.setDiscussionLocked(one.id, true);
    await x.setForceRemoveSourceBranch(one.id, true);
    expect((await x.extras([one.id])).get(one.id)).toMatchObject({ discussionLocked: true, forceRemoveSourceBranch: true });
    await x.setDiscussionLocked(one.id, false);
    expect((await x.extras([one.id])).get(one.id)?.discussionLocked).toBe(false);
  });

  it("mergeRequestExtras.setSquash / setSquashCommitSha - false and null until set", async () => {
    const { mr, x } = await mrSetup();
    const one = await mr("f1");
    expect((await x.extras([one.id])).get(one.id)).toMatchObject({ squash: false, squashCommitSha: null });
    await x.setSquash(one.id, true);
    await x.setSquashCommitSha(one.id, SHA);
    expect((await x.extras([one.id])).get(one.id)).toMatchObject({ squash: true, squashCommitSha: SHA, discussionLocked: null });
    await x.setSquash(one.id, false);
    expect((await x.extras([one.id])).get(one.id)).toMatchObject({ squash: false, squashCommitSha: SHA });
  });

  it("mergeRequestExtras.setMilestone - set, listed by milestone id or title, none or any; deleting the milestone clears it", async () => {
    const { user, project, mr, x } = await mrSetup();
    const one = await mr("f1");
    const two = await mr("f2");
    await mr("f3");
    const milestone = async (title: string) => (await ctx.store.activity.milestones.create({ projectId: project.id, title, description: "" }, T0))!;
    const [v1, v2] = [await milestone("v1"), await milestone("v2")];
    await x.setMilestone(one.id, v1.id);
    await x.setMilestone(two.id, v2.id);
    await x.setAutoMerge(two.id, { userId: user.id, sha: SHA, removeSourceBranch: false, createdAt: at(1) });
    expect((await x.extras([one.id, two.id])).get(one.id)?.milestoneId).toBe(v1.id);
    expect((await x.extras([two.id])).get(two.id)).toMatchObject({ milestoneId: v2.id, autoMerge: { sha: SHA } });
    const titles = async (milestoneFilter: object | string) => (await ctx.store.reviews.listMergeRequests({ projectIds: [project.id], orderBy: "created_at", sort: "asc", milestone: milestoneFilter as never }, page(1))).items.map((m) => m.title);
    expect(await titles({ id: v1.id })).toEqual(["f1"]);
    expect(await titles({ title: "v2" })).toEqual(["f2"]);
    expect(await titles({ title: "v3" })).toEqual([]);
    expect(await titles("any")).toEqual(["f1", "f2"]);
    expect(await titles("none")).toEqual(["f3"]);
    await x.setMilestone(two.id, null);
    expect(await titles("any")).toEqual(["f1"]);
    expect(await ctx.store.activity.issueDetails.removeMilestone(v1.id)).toBe(true);
    expect((await x.extras([one.id])).get(one.id)?.milestoneId).toBeNull();
    expect(await titles("none")).toEqual(["f1", "f2", "f3"]);
  });

  it("reviews.listMergeRequests - assigneeId and reviewerId filter by user, none or any; a removed user leaves the lists", async () => {
    const { user, other, project, mr, x } = await mrSetup();
    const one = await mr("f1");
    const two = await mr("f2");
    await x.setAssignees(one.id, [user.id]);
    await x.setReviewers(two.id, [other.id]);
    const titles = async (f: object) => (await ctx.store.reviews.listMergeRequests({ projectIds: [project.id], orderBy: "created_at", sort: "asc", ...f }, page(1))).items.map((m) => m.title);
    expect(await titles({ assigneeId: user.id })).toEqual(["f1"]);
    expect(await titles({ assigneeId: "none" })).toEqual(["f2"]);
    expect(await titles({ assigneeId: "any" })).toEqual(["f1"]);
    expect(await titles({ reviewerId: other.id })).toEqual(["f2"]);
    expect(await titles({ reviewerId: "none", assigneeId: "any" })).toEqual(["f1"]);
    await ctx.store.users.remove(other.id);
    expect(await titles({ reviewerId: "any" })).toEqual([]);
  });
}
