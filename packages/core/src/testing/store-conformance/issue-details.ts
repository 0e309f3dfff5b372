/** Conformance: `activity.issueDetails` (assignees, milestone, labels, filtered lists, note and milestone edits). */
import { expect, it } from "vitest";
import type { IssueListFilter } from "../../ports/issue-details-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = (n: number, perPage = 20) => ({ kind: "offset", page: n, perPage }) as const;

export function issueDetailsTests(ctx: SuiteContext): void {
  const setup = async () => {
    const author = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const a = await makeProject(ctx.store, group);
    const b = await makeProject(ctx.store, group);
    const issue = (projectId: number, title: string, now = T0, extra: { confidential?: boolean; description?: string; authorId?: number } = {}) =>
      ctx.store.activity.issues.create({ projectId, title, description: extra.description ?? "", confidential: extra.confidential ?? false, authorId: extra.authorId ?? author.id }, now);
    const base = (projectIds: number[]): IssueListFilter => ({ projectIds, confidentialAccess: { all: true }, orderBy: "created_at", sort: "desc" });
    const iidsOf = async (filter: IssueListFilter) => (await ctx.store.activity.issueDetails.list(filter, page(1))).items.map((i) => `${i.projectId === a.id ? "a" : "b"}${i.iid}`);
    return { author, other, a, b, issue, base, iidsOf, d: ctx.store.activity.issueDetails };
  };

  it("issueDetails.setAssignees / assigneesOf - replaces the set; issues without assignees map to []", async () => {
    const { author, other, a, issue, d } = await setup();
    const one = await issue(a.id, "one");
    const two = await issue(a.id, "two");
    await d.setAssignees(one.id, [other.id, author.id, other.id]);
    expect(await d.assigneesOf([one.id, two.id])).toEqual(new Map([[one.id, [author.id, other.id].sort((x, y) => x - y)], [two.id, []]]));
    await d.setAssignees(one.id, [other.id]);
    expect((await d.assigneesOf([one.id])).get(one.id)).toEqual([other.id]);
    await d.setAssignees(one.id, []);
    expect((await d.assigneesOf([one.id])).get(one.id)).toEqual([]);
  });

  it("issueDetails.setMilestone / removeMilestone - an issue keeps no milestone once it is deleted", async () => {
    const { a, issue, d } = await setup();
    const one = await issue(a.id, "one");
    const milestone = await ctx.store.activity.milestones.create({ projectId: a.id, title: "v1", description: "" }, T0);
    if (milestone === null) throw new Error("milestone refused");
    await d.setMilestone(one.id, milestone.id);
    expect(await d.milestonesOf([one.id])).toEqual(new Map([[one.id, milestone.id]]));
    expect(await d.removeMilestone(milestone.id)).toBe(true);
    expect(await d.removeMilestone(milestone.id)).toBe(false);
    expect(await d.milestonesOf([one.id])).toEqual(new Map([[one.id, null]]));
    expect(await ctx.store.activity.milestones.findById(milestone.id)).toBeNull();
  });

  it("issueDetails.labelNamesOf / unlinkLabels - names by name; unlink counts what was on the issue", async () => {
    const { a, issue, d } = await setup();
    const one = await issue(a.id, "one");
    const bug = await ctx.store.imports.labels.create({ projectId: a.id, name: "bug", color: "#ff0000", description: "" }, T0);
    const api = await ctx.store.imports.labels.create({ projectId: a.id, name: "api", color: "#00ff00", description: "" }, T0);
    if (bug === null || api === null) throw new Error("label refused");
    await ctx.store.imports.labels.link(bug.id, "Issue", one.id);
    await ctx.store.imports.labels.link(api.id, "Issue", one.id);
    expect(await d.labelNamesOf([one.id])).toEqual(new Map([[one.id, ["api", "bug"]]]));
    expect(await d.unlinkLabels(one.id, [bug.id, bug.id + 1000])).toBe(1);
    expect((await d.labelNamesOf([one.id])).get(one.id)).toEqual(["api"]);
  });

  it("issueDetails.list - filters by project, state, author, assignee, labels, milestone, search, confidential, iids and dates", async () => {
    const { author, other, a, b, issue, base, iidsOf, d } = await setup();
    const a1 = await issue(a.id, "Login fails", at(1), { description: "the 50% case" });
    await issue(a.id, "secret", at(2), { confidential: true, authorId: other.id });
    const a3 = await issue(a.id, "docs", at(3));
    await issue(b.id, "other project", at(4));
    await ctx.store.activity.issues.update(a3.id, { state: "closed", closedAt: at(5), updatedAt: at(5) });
    await d.setAssignees(a1.id, [other.id]);
    const label = await ctx.store.imports.labels.create({ projectId: a.id, name: "bug", color: "#ff0000", description: "" }, T0);
    if (label === null) throw new Error("label refused");
    await ctx.store.imports.labels.link(label.id, "Issue", a1.id);
    const milestone = await ctx.store.activity.milestones.create({ projectId: a.id, title: "v1", description: "" }, T0);
    if (milestone === null) throw new Error("milestone refused");
    await d.setMilestone(a3.id, milestone.id);

    expect(await iidsOf(base([a.id]))).toEqual(["a3", "a2", "a1"]);
    expect(await iidsOf(base([a.id, b.id]))).toEqual(["b1", "a3", "a2", "a1"]);
    expect(await iidsOf(base([]))).toEqual([]);
    expect(await iidsOf({ ...base([a.id]), state: "closed" })).toEqual(["a3"]);
    expect(await iidsOf({ ...base([a.id]), authorId: other.id })).toEqual(["a2"]);
    expect(await iidsOf({ ...base([a.id]), assignee: other.id })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), assignee: "none" })).toEqual(["a3", "a2"]);
    expect(await iidsOf({ ...base([a.id]), assignee: "any" })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), labels: ["bug"] })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), labels: ["bug", "missing"] })).toEqual([]);
    expect(await iidsOf({ ...base([a.id]), labels: "none" })).toEqual(["a3", "a2"]);
    expect(await iidsOf({ ...base([a.id]), milestone: { title: "v1" } })).toEqual(["a3"]);
    expect(await iidsOf({ ...base([a.id]), milestone: "none" })).toEqual(["a2", "a1"]);
    expect(await iidsOf({ ...base([a.id]), milestone: "any" })).toEqual(["a3"]);
    expect(await iidsOf({ ...base([a.id]), search: "LOGIN" })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), search: "50%" })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), search: "%" })).toEqual(["a1"]);
    expect(await iidsOf({ ...base([a.id]), confidential: true })).toEqual(["a2"]);
    expect(await iidsOf({ ...base([a.id]), iids: [1, 3] })).toEqual(["a3", "a1"]);
    expect(await iidsOf({ ...base([a.id]), iids: [] })).toEqual([]);
    expect(await iidsOf({ ...base([a.id]), createdAfter: at(2), createdBefore: at(2) })).toEqual(["a2"]);
    expect(await iidsOf({ ...base([a.id]), updatedAfter: at(4) })).toEqual(["a3"]);
    expect(await iidsOf({ ...base([a.id]), updatedBefore: at(1) })).toEqual(["a1"]);
    expect(author.id).not.toBe(other.id);
  });

  it("issueDetails.list - confidential issues only for listed projects, their author and assignees", async () => {
    const { author, other, a, issue, base, iidsOf, d } = await setup();
    const mine = await issue(a.id, "mine", at(1), { confidential: true });
    const theirs = await issue(a.id, "theirs", at(2), { confidential: true, authorId: other.id });
    await issue(a.id, "open", at(3));
    const stranger = await makeUser(ctx.store);
    expect(await iidsOf({ ...base([a.id]), confidentialAccess: { all: false, userId: null, projectIds: [] } })).toEqual(["a3"]);
    expect(await iidsOf({ ...base([a.id]), confidentialAccess: { all: false, userId: author.id, projectIds: [] } })).toEqual(["a3", "a1"]);
    expect(await iidsOf({ ...base([a.id]), confidentialAccess: { all: false, userId: stranger.id, projectIds: [a.id] } })).toEqual(["a3", "a2", "a1"]);
    await d.setAssignees(theirs.id, [stranger.id]);
    expect(await iidsOf({ ...base([a.id]), confidentialAccess: { all: false, userId: stranger.id, projectIds: [] } })).toEqual(["a3", "a2"]);
    expect(mine.confidential).toBe(true);
  });

  it("issueDetails.list - orders by created_at, updated_at or title in either direction, ties by id; offset pages", async () => {
    const { a, issue, base, iidsOf, d } = await setup();
    await issue(a.id, "beta", at(1));
    const second = await issue(a.id, "alpha", at(1));
    await issue(a.id, "gamma", at(2));
    await ctx.store.activity.issues.update(second.id, { updatedAt: at(9) });
    expect(await iidsOf({ ...base([a.id]), sort: "asc" })).toEqual(["a1", "a2", "a3"]);
    expect(await iidsOf({ ...base([a.id]), orderBy: "updated_at" })).toEqual(["a2", "a3", "a1"]);
    expect(await iidsOf({ ...base([a.id]), orderBy: "title", sort: "asc" })).toEqual(["a2", "a1", "a3"]);
    const first = await d.list({ ...base([a.id]), sort: "asc" }, { kind: "offset", page: 1, perPage: 2 });
    expect(first).toMatchObject({ total: 3, hasNext: true });
    const rest = await d.list({ ...base([a.id]), sort: "asc" }, { kind: "offset", page: 2, perPage: 2 });
    expect(rest.items.map((i) => i.iid)).toEqual([3]);
  });

  it("issueDetails.removeIssue - deletes the issue with its notes, assignees and labels; false for an unknown id", async () => {
    const { other, a, issue, d } = await setup();
    const one = await issue(a.id, "one");
    const note = await ctx.store.activity.notes.create({ projectId: a.id, noteableType: "Issue", noteableId: one.id, authorId: other.id, body: "hi", system: false }, T0);
    await d.setAssignees(one.id, [other.id]);
    expect(await d.removeIssue(one.id)).toBe(true);
    expect(await ctx.store.activity.issues.findById(one.id)).toBeNull();
    expect(await ctx.store.activity.notes.findById(note.id)).toBeNull();
    expect((await d.assigneesOf([one.id])).get(one.id)).toEqual([]);
    expect(await d.removeIssue(one.id)).toBe(false);
  });

  it("issueDetails notes - updateNote, removeNote and listNotes ordered by created_at or updated_at", async () => {
    const { author, a, issue, d } = await setup();
    const one = await issue(a.id, "one");
    const make = (now: Date) => ctx.store.activity.notes.create({ projectId: a.id, noteableType: "Issue", noteableId: one.id, authorId: author.id, body: "b", system: false }, now);
    const n1 = await make(at(1));
    const n2 = await make(at(2));
    expect(await d.updateNote(n1.id, "edited", at(5))).toEqual({ ...n1, body: "edited", updatedAt: at(5) });
    expect(await d.updateNote(n2.id + 1000, "x", at(5))).toBeNull();
    const ids = async (orderBy: "created_at" | "updated_at", sort: "asc" | "desc") => (await d.listNotes("Issue", one.id, orderBy, sort, page(1))).items.map((n) => n.id);
    expect(await ids("created_at", "desc")).toEqual([n2.id, n1.id]);
    expect(await ids("updated_at", "desc")).toEqual([n1.id, n2.id]);
    expect(await ids("created_at", "asc")).toEqual([n1.id, n2.id]);
    expect(await d.removeNote(n1.id)).toBe(true);
    expect(await d.removeNote(n1.id)).toBe(false);
    expect(await ids("created_at", "asc")).toEqual([n2.id]);
  });

  it("issueDetails milestones - listMilestones filters by state, title, search and iids, newest iid first; describeMilestone", async () => {
    const { a, b, d } = await setup();
    const make = async (projectId: number, title: string, description = "") => {
      const m = await ctx.store.activity.milestones.create({ projectId, title, description }, T0);
      if (m === null) throw new Error("milestone refused");
      return m;
    };
    const v1 = await make(a.id, "v1.0", "First release");
    const v2 = await make(a.id, "v2.0");
    await make(b.id, "v1.0");
    await ctx.store.activity.milestones.update(v1.id, { state: "closed" });
    const titles = async (filter: Omit<Parameters<typeof d.listMilestones>[0], "projectId">) => (await d.listMilestones({ projectId: a.id, ...filter }, page(1))).items.map((m) => m.title);
    expect(await titles({})).toEqual(["v2.0", "v1.0"]);
    expect(await titles({ state: "active" })).toEqual(["v2.0"]);
    expect(await titles({ title: "v1.0" })).toEqual(["v1.0"]);
    expect(await titles({ search: "RELEASE" })).toEqual(["v1.0"]);
    expect(await titles({ iids: [2] })).toEqual(["v2.0"]);
    expect(await d.describeMilestone(v2.id, "new", at(3))).toEqual({ ...v2, description: "new", updatedAt: at(3) });
    expect(await d.describeMilestone(v2.id + 1000, "x", at(3))).toBeNull();
  });
}
