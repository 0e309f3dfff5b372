/** Conformance: `mergeRequestVersions` (one version per distinct head) and `approvals` (approvals, settings, rules). */
import { expect, it } from "vitest";
import { DEFAULT_APPROVAL_SETTINGS } from "../../ports/approvals-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const HEAD = "a".repeat(40);
const NEXT = "b".repeat(40);
const BASE = "c".repeat(40);

export function mergeRequestReviewTests(ctx: SuiteContext): void {
  const setup = async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const mr = await ctx.store.activity.mergeRequests.create({ projectId: project.id, authorId: user.id, title: "MR", description: "", sourceBranch: "feature", targetBranch: "main" }, T0);
    return { user, group, project, mr };
  };

  it("mergeRequestVersions.record - one version per distinct head; the same head again answers the existing row; list is newest first", async () => {
    const { mr } = await setup();
    const v = ctx.store.mergeRequestVersions;
    const first = await v.record({ mergeRequestId: mr.id, headSha: HEAD, baseSha: BASE, startSha: BASE }, T0);
    expect(first).toMatchObject({ mergeRequestId: mr.id, headSha: HEAD, baseSha: BASE, startSha: BASE, createdAt: T0 });
    const again = await v.record({ mergeRequestId: mr.id, headSha: HEAD, baseSha: BASE, startSha: BASE }, at(1));
    expect(again).toEqual(first);
    const second = await v.record({ mergeRequestId: mr.id, headSha: NEXT, baseSha: BASE, startSha: BASE }, at(2));
    expect((await v.list(mr.id)).map((x) => x.id)).toEqual([second?.id, first?.id]);
    expect(await v.find(mr.id, second?.id ?? -1)).toEqual(second);
    expect(await v.record({ mergeRequestId: mr.id + 10_000, headSha: HEAD, baseSha: BASE, startSha: BASE }, T0)).toBeNull();
  });

  it("mergeRequestVersions.record - of two racing callers with the same head, both get the one row", async () => {
    const { mr } = await setup();
    const input = { mergeRequestId: mr.id, headSha: HEAD, baseSha: BASE, startSha: BASE };
    const [a, b] = await Promise.all([ctx.store.mergeRequestVersions.record(input, T0), ctx.store.mergeRequestVersions.record(input, T0)]);
    expect(a?.id).toBe(b?.id);
    expect(await ctx.store.mergeRequestVersions.list(mr.id)).toHaveLength(1);
  });

  it("mergeRequestVersions.find - a version of another merge request is null", async () => {
    const { mr, project, user } = await setup();
    const other = await ctx.store.activity.mergeRequests.create({ projectId: project.id, authorId: user.id, title: "Other", description: "", sourceBranch: "other", targetBranch: "main" }, T0);
    const version = await ctx.store.mergeRequestVersions.record({ mergeRequestId: mr.id, headSha: HEAD, baseSha: BASE, startSha: BASE }, T0);
    expect(await ctx.store.mergeRequestVersions.find(other.id, version?.id ?? -1)).toBeNull();
  });

  it("approvals.approve - once per user (a second approval writes nothing); unapprove and resetApprovals remove them", async () => {
    const { mr, user } = await setup();
    const other = await makeUser(ctx.store);
    const a = ctx.store.approvals;
    expect(await a.approve(mr.id, user.id, T0)).toBe(true);
    expect(await a.approve(mr.id, user.id, at(1))).toBe(false);
    expect(await a.approve(mr.id, other.id, at(2))).toBe(true);
    expect((await a.approvals([mr.id])).get(mr.id)).toEqual([
      { mergeRequestId: mr.id, userId: user.id, createdAt: T0 },
      { mergeRequestId: mr.id, userId: other.id, createdAt: at(2) },
    ]);
    expect(await a.unapprove(mr.id, user.id)).toBe(true);
    expect(await a.unapprove(mr.id, user.id)).toBe(false);
    expect(await a.resetApprovals(mr.id)).toBe(1);
    expect((await a.approvals([mr.id, mr.id + 10_000])).get(mr.id)).toEqual([]);
  });

  it("approvals.settings - the defaults until written; updateSettings writes only the fields given", async () => {
    const { project } = await setup();
    const a = ctx.store.approvals;
    expect(await a.settings(project.id)).toEqual(DEFAULT_APPROVAL_SETTINGS);
    expect(await a.updateSettings(project.id, { approvalsBeforeMerge: 2 })).toEqual({ ...DEFAULT_APPROVAL_SETTINGS, approvalsBeforeMerge: 2 });
    await a.updateSettings(project.id, { resetApprovalsOnPush: false, mergeRequestsAuthorApproval: true });
    expect(await a.settings(project.id)).toEqual({ ...DEFAULT_APPROVAL_SETTINGS, approvalsBeforeMerge: 2, resetApprovalsOnPush: false, mergeRequestsAuthorApproval: true });
  });

  it("approvals.createRule - rules of a project with their users and groups; updateRule replaces what is given; removeRule deletes", async () => {
    const { project, user, group } = await setup();
    const other = await makeProject(ctx.store, group);
    const a = ctx.store.approvals;
    const rule = await a.createRule({ projectId: project.id, name: "Security", approvalsRequired: 1, userIds: [user.id], groupIds: [group.id] });
    expect(rule).toMatchObject({ projectId: project.id, name: "Security", approvalsRequired: 1, userIds: [user.id], groupIds: [group.id] });
    expect(await a.findRule(other.id, rule.id)).toBeNull();
    const updated = await a.updateRule(project.id, rule.id, { approvalsRequired: 2, groupIds: [] });
    expect(updated).toEqual({ ...rule, approvalsRequired: 2, groupIds: [] });
    expect(await a.updateRule(other.id, rule.id, { name: "x" })).toBeNull();
    expect(await a.rules(project.id)).toEqual([updated]);
    expect(await a.removeRule(other.id, rule.id)).toBe(false);
    expect(await a.removeRule(project.id, rule.id)).toBe(true);
    expect(await a.rules(project.id)).toEqual([]);
  });
}
