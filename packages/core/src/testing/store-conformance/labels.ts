/** Conformance: `labels` (ports/labels-store.ts) over the label rows of `imports.labels`. */
import { expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = { kind: "offset", page: 1, perPage: 20 } as const;

export function labelTests(ctx: SuiteContext): void {
  const project = async (): Promise<Project> => makeProject(ctx.store, await makeGroup(ctx.store));
  const label = async (projectId: number, name: string, description = "") => (await ctx.store.imports.labels.create({ projectId, name, color: "#112233", description }, T0))!;

  it("labels.list - one project's labels by name, search on name or description (case-insensitive), paged", async () => {
    const p = await project();
    const other = await project();
    await label(p.id, "bug", "Something broken");
    await label(p.id, "Zebra");
    await label(p.id, "docs");
    await label(other.id, "bug");
    const names = async (search?: string, perPage = 20) => (await ctx.store.labels.list({ projectId: p.id, ...(search === undefined ? {} : { search }) }, { ...page, perPage })).items.map((l) => l.name);
    expect(await names()).toEqual(["Zebra", "bug", "docs"]);
    expect(await names("BROKEN")).toEqual(["bug"]);
    expect(await names("e")).toEqual(["Zebra", "bug"]);
    expect(await names("100%")).toEqual([]);
    const first = await ctx.store.labels.list({ projectId: p.id }, { ...page, perPage: 2 });
    expect({ total: first.total, hasNext: first.hasNext }).toEqual({ total: 3, hasNext: true });
  });

  it("labels.update - writes the patch; a name another label of the project has is null, nothing written", async () => {
    const p = await project();
    const bug = await label(p.id, "bug");
    const docs = await label(p.id, "docs");
    expect(await ctx.store.labels.update(bug.id, { name: "defect", color: "#ffffff", description: "d" }, at(1))).toEqual({ ...bug, name: "defect", color: "#ffffff", description: "d", updatedAt: at(1) });
    expect(await ctx.store.labels.update(docs.id, { name: "defect" }, at(2))).toBeNull();
    expect(await ctx.store.labels.findById(docs.id)).toEqual(docs);
    expect(await ctx.store.labels.update(docs.id + 1000, { name: "x" }, at(2))).toBeNull();
  });

  it("labels.remove - takes the label off issues and merge requests, with its priority and subscriptions", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    const bug = await label(p.id, "bug");
    const kept = await label(p.id, "kept");
    const issue = await ctx.store.activity.issues.create({ projectId: p.id, title: "t", description: "", confidential: false, authorId: user.id }, T0);
    for (const id of [bug.id, kept.id]) await ctx.store.imports.labels.link(id, "Issue", issue.id);
    await ctx.store.labels.setPriority(p.id, bug.id, 1);
    await ctx.store.labels.subscribe(bug.id, user.id);
    expect(await ctx.store.labels.remove(bug.id)).toBe(true);
    expect(await ctx.store.labels.remove(bug.id)).toBe(false);
    expect(await ctx.store.labels.findById(bug.id)).toBeNull();
    expect((await ctx.store.activity.issueDetails.labelNamesOf([issue.id])).get(issue.id)).toEqual(["kept"]);
    expect(await ctx.store.labels.priorities(p.id, [bug.id])).toEqual(new Map());
    expect(await ctx.store.labels.subscribed(user.id, [bug.id])).toEqual(new Set());
  });

  it("labels.mergeInto - links, priorities and subscriptions move to the label merged into (its own kept, one link per target); the merged labels are gone", async () => {
    const alice = await makeUser(ctx.store);
    const bob = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const [p, q] = [await makeProject(ctx.store, group), await makeProject(ctx.store, group)];
    const into = (await ctx.store.labels.createGroupLabel({ groupId: group.id, name: "bug", color: "#ff0000", description: "" }, T0))!;
    const fromP = await label(p.id, "bug");
    const fromQ = await label(q.id, "bug");
    const kept = await label(p.id, "kept");
    const issue = (projectId: number, title: string) => ctx.store.activity.issues.create({ projectId, title, description: "", confidential: false, authorId: alice.id }, T0);
    const [onlyP, both, onlyQ] = [await issue(p.id, "p"), await issue(p.id, "both"), await issue(q.id, "q")];
    const mr = await ctx.store.activity.mergeRequests.create({ projectId: q.id, title: "m", description: "", authorId: alice.id, sourceBranch: "m", targetBranch: "main" }, T0);
    await ctx.store.imports.labels.link(fromP.id, "Issue", onlyP.id);
    await ctx.store.imports.labels.link(kept.id, "Issue", onlyP.id);
    await ctx.store.imports.labels.link(fromP.id, "Issue", both.id);
    await ctx.store.imports.labels.link(into.id, "Issue", both.id);
    await ctx.store.imports.labels.link(fromQ.id, "Issue", onlyQ.id);
    await ctx.store.imports.labels.link(fromQ.id, "MergeRequest", mr.id);
    await ctx.store.labels.setPriority(p.id, fromP.id, 1);
    await ctx.store.labels.setPriority(q.id, fromQ.id, 2);
    await ctx.store.labels.setPriority(q.id, into.id, 7);
    await ctx.store.labels.subscribe(fromP.id, alice.id);
    await ctx.store.labels.subscribe(fromQ.id, alice.id);
    await ctx.store.labels.subscribe(fromQ.id, bob.id);

    await ctx.store.labels.mergeInto(into.id, [fromP.id, fromQ.id, into.id, fromQ.id + 10_000]);

    expect([await ctx.store.labels.findById(fromP.id), await ctx.store.labels.findById(fromQ.id), (await ctx.store.labels.findById(into.id))?.name]).toEqual([null, null, "bug"]);
    const names = await ctx.store.activity.issueDetails.labelNamesOf([onlyP.id, both.id, onlyQ.id]);
    expect([names.get(onlyP.id), names.get(both.id), names.get(onlyQ.id)]).toEqual([["bug", "kept"], ["bug"], ["bug"]]);
    expect((await ctx.store.imports.labels.labelsOf("MergeRequest", mr.id)).map((l) => l.id)).toEqual([into.id]);
    expect([await ctx.store.labels.priorities(p.id, [into.id]), await ctx.store.labels.priorities(q.id, [into.id])]).toEqual([new Map([[into.id, 1]]), new Map([[into.id, 7]])]);
    expect([await ctx.store.labels.subscribed(alice.id, [into.id]), await ctx.store.labels.subscribed(bob.id, [into.id])]).toEqual([new Set([into.id]), new Set([into.id])]);
    expect((await ctx.store.labels.counts([into.id], { confidential: true })).get(into.id)).toEqual({ openIssues: 3, closedIssues: 0, openMergeRequests: 1 });
    await ctx.store.labels.mergeInto(into.id, []);
    expect((await ctx.store.labels.findById(kept.id))?.name).toBe("kept");
  });

  it("labels.setPriority / priorities - per project; null clears it", async () => {
    const p = await project();
    const bug = await label(p.id, "bug");
    const docs = await label(p.id, "docs");
    await ctx.store.labels.setPriority(p.id, bug.id, 3);
    await ctx.store.labels.setPriority(p.id, bug.id, 5);
    await ctx.store.labels.setPriority(p.id, docs.id, 0);
    expect(await ctx.store.labels.priorities(p.id, [bug.id, docs.id])).toEqual(new Map([[bug.id, 5], [docs.id, 0]]));
    await ctx.store.labels.setPriority(p.id, docs.id, null);
    expect(await ctx.store.labels.priorities(p.id, [bug.id, docs.id])).toEqual(new Map([[bug.id, 5]]));
    expect(await ctx.store.labels.priorities(p.id, [])).toEqual(new Map());
  });

  it("labels.subscribe / unsubscribe - false when nothing changes; subscribed lists the user's", async () => {
    const alice = await makeUser(ctx.store);
    const bob = await makeUser(ctx.store);
    const p = await project();
    const bug = await label(p.id, "bug");
    const docs = await label(p.id, "docs");
    expect(await ctx.store.labels.subscribe(bug.id, alice.id)).toBe(true);
    expect(await ctx.store.labels.subscribe(bug.id, alice.id)).toBe(false);
    expect(await ctx.store.labels.subscribed(alice.id, [bug.id, docs.id])).toEqual(new Set([bug.id]));
    expect(await ctx.store.labels.subscribed(bob.id, [bug.id, docs.id])).toEqual(new Set());
    expect(await ctx.store.labels.unsubscribe(bug.id, alice.id)).toBe(true);
    expect(await ctx.store.labels.unsubscribe(bug.id, alice.id)).toBe(false);
    expect(await ctx.store.labels.subscribed(alice.id, [bug.id])).toEqual(new Set());
  });

  it("labels.counts - open and closed issues (confidential only when asked) and open merge requests, zeros included", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    const bug = await label(p.id, "bug");
    const idle = await label(p.id, "idle");
    const issue = (title: string, confidential = false) => ctx.store.activity.issues.create({ projectId: p.id, title, description: "", confidential, authorId: user.id }, T0);
    const open = await issue("open");
    const closed = await issue("closed");
    const secret = await issue("secret", true);
    await ctx.store.activity.issues.update(closed.id, { state: "closed", closedAt: T0 });
    const mr = (title: string) => ctx.store.activity.mergeRequests.create({ projectId: p.id, title, description: "", authorId: user.id, sourceBranch: title, targetBranch: "main" }, T0);
    const openMr = await mr("a");
    const mergedMr = await mr("b");
    await ctx.store.activity.mergeRequests.update(mergedMr.id, { state: "merged", mergedAt: T0 });
    for (const target of [open, closed, secret]) await ctx.store.imports.labels.link(bug.id, "Issue", target.id);
    for (const target of [openMr, mergedMr]) await ctx.store.imports.labels.link(bug.id, "MergeRequest", target.id);
    expect(await ctx.store.labels.counts([bug.id, idle.id], { confidential: true })).toEqual(
      new Map([
        [bug.id, { openIssues: 2, closedIssues: 1, openMergeRequests: 1 }],
        [idle.id, { openIssues: 0, closedIssues: 0, openMergeRequests: 0 }],
      ]),
    );
    expect((await ctx.store.labels.counts([bug.id], { confidential: false })).get(bug.id)).toEqual({ openIssues: 1, closedIssues: 1, openMergeRequests: 1 });
  });

  it("labels.createGroupLabel / findInGroups - unique name per group, apart from project labels; nearest group first", async () => {
    const parent = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent });
    const p = await makeProject(ctx.store, child);
    const input = { groupId: parent.id, name: "bug", color: "#ff0000", description: "d" };
    const created = await ctx.store.labels.createGroupLabel(input, T0);
    expect(created).toEqual({ id: created?.id, projectId: null, groupId: parent.id, name: "bug", color: "#ff0000", description: "d", createdAt: T0, updatedAt: T0 });
    expect(await ctx.store.labels.createGroupLabel(input, T0)).toBeNull();
    const own = await ctx.store.labels.createGroupLabel({ ...input, groupId: child.id }, T0);
    expect(own?.groupId).toBe(child.id);
    expect((await label(p.id, "bug")).projectId).toBe(p.id);
    expect(await ctx.store.labels.findById(created!.id)).toEqual(created);
    expect((await ctx.store.labels.findInGroups([child.id, parent.id], "bug"))?.id).toBe(own?.id);
    expect((await ctx.store.labels.findInGroups([parent.id], "bug"))?.id).toBe(created?.id);
    expect(await ctx.store.labels.findInGroups([child.id, parent.id], "none")).toBeNull();
    expect(await ctx.store.labels.findInGroups([], "bug")).toBeNull();
  });

  it("labels.list / update - a project's labels with its groups' labels; a name taken in the same group is null", async () => {
    const group = await makeGroup(ctx.store);
    const p = await makeProject(ctx.store, group);
    await label(p.id, "project-only");
    const shared = (await ctx.store.labels.createGroupLabel({ groupId: group.id, name: "shared", color: "#000000", description: "" }, T0))!;
    const other = (await ctx.store.labels.createGroupLabel({ groupId: group.id, name: "other", color: "#000000", description: "" }, T0))!;
    const names = async (filter: { projectId?: number; groupIds?: number[] }) => (await ctx.store.labels.list(filter, page)).items.map((l) => l.name);
    expect(await names({ projectId: p.id, groupIds: [group.id] })).toEqual(["other", "project-only", "shared"]);
    expect(await names({ groupIds: [group.id] })).toEqual(["other", "shared"]);
    expect(await names({ projectId: p.id })).toEqual(["project-only"]);
    expect(await names({})).toEqual([]);
    expect(await ctx.store.labels.update(other.id, { name: "shared" }, at(1))).toBeNull();
    expect(await ctx.store.labels.update(other.id, { name: "project-only" }, at(1))).toMatchObject({ name: "project-only", groupId: group.id });
    expect((await ctx.store.labels.findById(shared.id))?.name).toBe("shared");
  });

  it("namespaces.removeGroup - removes the group's labels with their links", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const keep = await makeGroup(ctx.store);
    const p = await makeProject(ctx.store, keep);
    const doomed = (await ctx.store.labels.createGroupLabel({ groupId: group.id, name: "doomed", color: "#000000", description: "" }, T0))!;
    const issue = await ctx.store.activity.issues.create({ projectId: p.id, title: "t", description: "", confidential: false, authorId: user.id }, T0);
    await ctx.store.imports.labels.link(doomed.id, "Issue", issue.id);
    await ctx.store.namespaces.removeGroup(group.id);
    expect(await ctx.store.labels.findById(doomed.id)).toBeNull();
    expect((await ctx.store.activity.issueDetails.labelNamesOf([issue.id])).get(issue.id)).toEqual([]);
  });
}
