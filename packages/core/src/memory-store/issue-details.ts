/** In-memory {@link IssueDetailsRepository} (ports/issue-details-store.ts); mirrors the SQL store. */
import type { Issue, Milestone, Note } from "../activity/types.js";
import type { IssueDetailsRepository, IssueListFilter, MilestoneListFilter } from "../ports/issue-details-store.js";
import { forgetMergeRequestMilestone } from "./merge-request-extras.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { compareText } from "./text.js";

const lowerContains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

function linkedLabelNames(state: MemoryState, issueId: number): string[] {
  const names: string[] = [];
  for (const label of state.imports.labels.values()) if (state.imports.labelLinks.has(`${label.id}|Issue|${issueId}`)) names.push(label.name);
  return names.sort(compareText);
}

function assignees(state: MemoryState, issueId: number): number[] {
  return (state.activity.issueAssignees.get(issueId) ?? []).filter((id) => state.users.has(id));
}

function matches(state: MemoryState, issue: Issue, filter: IssueListFilter): boolean {
  if (!filter.projectIds.includes(issue.projectId)) return false;
  const access = filter.confidentialAccess;
  const assigned = assignees(state, issue.id);
  if (issue.confidential && !access.all) {
    const uid = access.userId;
    if (!access.projectIds.includes(issue.projectId) && !(uid !== null && (issue.authorId === uid || assigned.includes(uid)))) return false;
  }
  if (filter.state !== undefined && issue.state !== filter.state) return false;
  if (filter.authorId !== undefined && issue.authorId !== filter.authorId) return false;
  if (filter.confidential !== undefined && issue.confidential !== filter.confidential) return false;
  if (filter.iids !== undefined && !filter.iids.includes(issue.iid)) return false;
  if (filter.assignee === "none" && assigned.length > 0) return false;
  if (filter.assignee === "any" && assigned.length === 0) return false;
  if (typeof filter.assignee === "number" && !assigned.includes(filter.assignee)) return false;
  const labels = linkedLabelNames(state, issue.id);
  if (filter.labels === "none" && labels.length > 0) return false;
  if (filter.labels === "any" && labels.length === 0) return false;
  if (Array.isArray(filter.labels) && !filter.labels.every((name: string) => labels.includes(name))) return false;
  const milestoneId = state.activity.issueMilestones.get(issue.id);
  if (filter.milestone === "none" && milestoneId !== undefined) return false;
  if (filter.milestone === "any" && milestoneId === undefined) return false;
  if (typeof filter.milestone === "object") {
    if (milestoneId === undefined || state.activity.milestones.get(milestoneId)?.title !== filter.milestone.title) return false;
  }
  if (filter.search !== undefined && !lowerContains(issue.title, filter.search) && !lowerContains(issue.description, filter.search)) return false;
  const created = issue.createdAt.getTime();
  const updated = issue.updatedAt.getTime();
  if (filter.createdAfter !== undefined && created < filter.createdAfter.getTime()) return false;
  if (filter.createdBefore !== undefined && created > filter.createdBefore.getTime()) return false;
  if (filter.updatedAfter !== undefined && updated < filter.updatedAfter.getTime()) return false;
  if (filter.updatedBefore !== undefined && updated > filter.updatedBefore.getTime()) return false;
  return true;
}

function issueOrder(filter: IssueListFilter): (a: Issue, b: Issue) => number {
  const sign = filter.sort === "asc" ? 1 : -1;
  return (a, b) => {
    const primary =
      filter.orderBy === "title" ? compareText(a.title, b.title) : filter.orderBy === "updated_at" ? a.updatedAt.getTime() - b.updatedAt.getTime() : a.createdAt.getTime() - b.createdAt.getTime();
    return sign * (primary !== 0 ? primary : a.id - b.id);
  };
}

function milestoneMatches(m: Milestone, filter: MilestoneListFilter): boolean {
  if (m.projectId !== filter.projectId) return false;
  if (filter.state !== undefined && m.state !== filter.state) return false;
  if (filter.title !== undefined && m.title !== filter.title) return false;
  if (filter.iids !== undefined && !filter.iids.includes(m.iid)) return false;
  return filter.search === undefined || lowerContains(m.title, filter.search) || lowerContains(m.description, filter.search);
}

/** The in-memory issue-details repository. */
export function memoryIssueDetails(run: Runner): IssueDetailsRepository {
  return {
    setAssignees: (issueId, userIds) =>
      run((state) => {
        for (const id of userIds) if (!state.users.has(id)) throw new Error(`user ${id} does not exist`);
        state.activity.issueAssignees.set(issueId, [...new Set(userIds)].sort((a, b) => a - b));
      }),
    assigneesOf: (issueIds) => run((state) => new Map(issueIds.map((id) => [id, assignees(state, id)]))),
    setMilestone: (issueId, milestoneId) =>
      run((state) => {
        if (milestoneId === null) state.activity.issueMilestones.delete(issueId);
        else state.activity.issueMilestones.set(issueId, milestoneId);
      }),
    milestonesOf: (issueIds) =>
      run((state) => new Map(issueIds.filter((id) => state.activity.issues.has(id)).map((id) => [id, state.activity.issueMilestones.get(id) ?? null]))),
    unlinkLabels: (issueId, labelIds) =>
      run((state) => {
        let removed = 0;
        for (const labelId of labelIds) if (state.imports.labelLinks.delete(`${labelId}|Issue|${issueId}`)) removed += 1;
        return removed;
      }),
    labelNamesOf: (issueIds) => run((state) => new Map(issueIds.map((id) => [id, linkedLabelNames(state, id)]))),
    list: (filter, page) =>
      run((state) => {
        const rows = [...state.activity.issues.values()].filter((issue) => matches(state, issue, filter)).sort(issueOrder(filter));
        return offsetPage(rows, page, copy);
      }),
    removeIssue: (issueId) =>
      run((state) => {
        if (!state.activity.issues.delete(issueId)) return false;
        for (const [id, note] of state.activity.notes) if (note.noteableType === "Issue" && note.noteableId === issueId) state.activity.notes.delete(id);
        for (const key of state.imports.labelLinks) if (key.endsWith(`|Issue|${issueId}`)) state.imports.labelLinks.delete(key);
        state.activity.issueAssignees.delete(issueId);
        state.activity.issueMilestones.delete(issueId);
        return true;
      }),
    updateNote: (noteId, body, now) =>
      run((state) => {
        const note = state.activity.notes.get(noteId);
        if (note === undefined) return null;
        const updated: Note = { ...note, body, updatedAt: new Date(now) };
        state.activity.notes.set(noteId, updated);
        return copy(updated);
      }),
    removeNote: (noteId) => run((state) => state.activity.notes.delete(noteId)),
    listNotes: (noteableType, noteableId, orderBy, sort, page) =>
      run((state) => {
        const sign = sort === "asc" ? 1 : -1;
        const time = (n: Note) => (orderBy === "updated_at" ? n.updatedAt : n.createdAt).getTime();
        const rows = [...state.activity.notes.values()]
          .filter((n) => n.noteableType === noteableType && n.noteableId === noteableId)
          .sort((a, b) => sign * (time(a) - time(b) || a.id - b.id));
        return offsetPage(rows, page, copy);
      }),
    listMilestones: (filter, page) =>
      run((state) => {
        const rows = [...state.activity.milestones.values()].filter((m) => milestoneMatches(m, filter)).sort((a, b) => b.iid - a.iid);
        return offsetPage(rows, page, copy);
      }),
    describeMilestone: (milestoneId, description, now) =>
      run((state) => {
        const row = state.activity.milestones.get(milestoneId);
        if (row === undefined) return null;
        const updated: Milestone = { ...row, description, updatedAt: new Date(now) };
        state.activity.milestones.set(milestoneId, updated);
        return copy(updated);
      }),
    removeMilestone: (milestoneId) =>
      run((state) => {
        if (!state.activity.milestones.delete(milestoneId)) return false;
        for (const [issueId, id] of state.activity.issueMilestones) if (id === milestoneId) state.activity.issueMilestones.delete(issueId);
        forgetMergeRequestMilestone(state, milestoneId);
        return true;
      }),
  };
}
