/** In-memory {@link ReviewRepository}: merge-request merges, filters, labels and deletion; snippet descriptions, edits, lists. */
import type { MergeRequest, Snippet } from "../activity/types.js";
import type { MergeRequestListFilter, MergeRequestRecord, ReviewRepository, SnippetRecord } from "../ports/review-store.js";
import { hasMilestone, hasPerson } from "./merge-request-extras.js";
import { closingIssueIds } from "./merge-request-closing-issues.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

const linkKey = (labelId: number, mrId: number) => `${labelId}|MergeRequest|${mrId}`;

function record(state: MemoryState, mr: MergeRequest): MergeRequestRecord {
  const merge = state.reviews.merges.get(mr.id);
  return { ...copy(mr), mergeUserId: merge?.mergeUserId ?? null, mergeCommitSha: merge?.mergeCommitSha ?? null };
}

function snippetRecord(state: MemoryState, s: Snippet): SnippetRecord {
  return { ...copy(s), description: state.reviews.snippetDescriptions.get(s.id) ?? "" };
}

function labelNames(state: MemoryState, mrId: number): string[] {
  return [...state.imports.labels.values()]
    .filter((l) => state.imports.labelLinks.has(linkKey(l.id, mrId)))
    .map((l) => l.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function matches(state: MemoryState, mr: MergeRequest, f: MergeRequestListFilter): boolean {
  if (!f.projectIds.includes(mr.projectId)) return false;
  if (f.state !== undefined && mr.state !== f.state) return false;
  if (f.authorId !== undefined && mr.authorId !== f.authorId) return false;
  if (f.assigneeId !== undefined && !hasPerson(state, mr.id, "assigneeIds", f.assigneeId)) return false;
  if (f.milestone !== undefined && !hasMilestone(state, mr.id, f.milestone)) return false;
  if (f.reviewerId !== undefined && !hasPerson(state, mr.id, "reviewerIds", f.reviewerId)) return false;
  if (f.sourceBranch !== undefined && mr.sourceBranch !== f.sourceBranch) return false;
  if (f.targetBranch !== undefined && mr.targetBranch !== f.targetBranch) return false;
  if (f.iids !== undefined && !f.iids.includes(mr.iid)) return false;
  if (f.createdAfter !== undefined && mr.createdAt < f.createdAfter) return false;
  if (f.createdBefore !== undefined && mr.createdAt > f.createdBefore) return false;
  if (f.closesIssueId !== undefined && !closingIssueIds(state, mr.id).includes(f.closesIssueId)) return false;
  if (f.search !== undefined) {
    const term = f.search.toLowerCase();
    if (!mr.title.toLowerCase().includes(term) && !mr.description.toLowerCase().includes(term)) return false;
  }
  if (f.labels !== undefined) {
    const names = labelNames(state, mr.id);
    if (f.labels === "none" ? names.length > 0 : f.labels === "any" ? names.length === 0 : !f.labels.every((n) => names.includes(n))) return false;
  }
  return true;
}

function orderKey(mr: MergeRequest, orderBy: MergeRequestListFilter["orderBy"]): number | string {
  switch (orderBy) {
    case "created_at":
      return mr.createdAt.getTime();
    case "updated_at":
      return mr.updatedAt.getTime();
    case "merged_at":
      // Unmerged ones sort as the oldest (SQL NULLs first ascending is not portable: the SQL store does the same).
      return mr.mergedAt?.getTime() ?? -1;
    case "title":
      return mr.title;
  }
}

export function memoryReviews(run: Runner): ReviewRepository {
  return {
    findMergeRequest: (id) =>
      run((state) => {
        const mr = state.activity.mergeRequests.get(id);
        return mr === undefined ? null : record(state, mr);
      }),
    mergeRequestsByIds: (ids) => run((state) => ids.flatMap((id) => {
      const mr = state.activity.mergeRequests.get(id);
      return mr === undefined ? [] : [record(state, mr)];
    })),
    listMergeRequests: (filter, page) =>
      run((state) => {
        const dir = filter.sort === "asc" ? 1 : -1;
        const rows = [...state.activity.mergeRequests.values()]
          .filter((mr) => matches(state, mr, filter))
          .sort((a, b) => {
            const ka = orderKey(a, filter.orderBy);
            const kb = orderKey(b, filter.orderBy);
            return (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id) * dir;
          })
          .map((mr) => record(state, mr));
        return offsetPage(rows, page, (r) => r);
      }),
    findOpenMergeRequest: (projectId, source, target, exceptId) =>
      run((state) => {
        for (const mr of state.activity.mergeRequests.values()) {
          if (mr.projectId === projectId && mr.state === "opened" && mr.sourceBranch === source && mr.targetBranch === target && mr.id !== exceptId) return record(state, mr);
        }
        return null;
      }),
    updateMergeRequest: (id, edit) =>
      run((state) => {
        const mr = state.activity.mergeRequests.get(id);
        if (mr === undefined) return null;
        const updated: MergeRequest = {
          ...mr,
          ...(edit.title === undefined ? {} : { title: edit.title }),
          ...(edit.description === undefined ? {} : { description: edit.description }),
          ...(edit.targetBranch === undefined ? {} : { targetBranch: edit.targetBranch }),
          updatedAt: new Date(edit.updatedAt),
        };
        state.activity.mergeRequests.set(id, updated);
        return record(state, updated);
      }),
    markMerged: (id, merge) =>
      run((state) => {
        const mr = state.activity.mergeRequests.get(id);
        if (mr === undefined || mr.state !== "opened") return null;
        const updated: MergeRequest = { ...mr, state: "merged", mergedAt: new Date(merge.now), updatedAt: new Date(merge.now), closedAt: null };
        state.activity.mergeRequests.set(id, updated);
        state.reviews.merges.set(id, { mergeUserId: merge.mergeUserId, mergeCommitSha: merge.mergeCommitSha });
        return record(state, updated);
      }),
    setMergeRequestLabels: (mrId, labelIds) =>
      run((state) => {
        for (const key of [...state.imports.labelLinks]) if (key.endsWith(`|MergeRequest|${mrId}`)) state.imports.labelLinks.delete(key);
        for (const labelId of labelIds) {
          if (!state.imports.labels.has(labelId)) throw new Error(`label ${labelId} does not exist`);
          state.imports.labelLinks.add(linkKey(labelId, mrId));
        }
      }),
    mergeRequestLabelNames: (ids) => run((state) => new Map(ids.map((id) => [id, labelNames(state, id)]))),
    removeMergeRequest: (id) =>
      run((state) => {
        if (!state.activity.mergeRequests.delete(id)) return false;
        state.reviews.merges.delete(id);
        state.mrExtras.delete(id);
        for (const key of [...state.imports.labelLinks]) if (key.endsWith(`|MergeRequest|${id}`)) state.imports.labelLinks.delete(key);
        for (const [noteId, note] of state.activity.notes) if (note.noteableType === "MergeRequest" && note.noteableId === id) state.activity.notes.delete(noteId);
        return true;
      }),

    findSnippet: (id) =>
      run((state) => {
        const s = state.activity.snippets.get(id);
        return s === undefined ? null : snippetRecord(state, s);
      }),
    setSnippetDescription: (id, description) =>
      run((state) => {
        if (!state.activity.snippets.has(id)) throw new Error(`snippet ${id} does not exist`);
        state.reviews.snippetDescriptions.set(id, description);
      }),
    updateSnippet: (id, edit) =>
      run((state) => {
        const s = state.activity.snippets.get(id);
        if (s === undefined) return null;
        const { description, updatedAt, ...rest } = edit;
        const updated: Snippet = { ...s, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), updatedAt: new Date(updatedAt) };
        state.activity.snippets.set(id, updated);
        if (description !== undefined) state.reviews.snippetDescriptions.set(id, description);
        return snippetRecord(state, updated);
      }),
    listSnippets: (filter, page) =>
      run((state) => {
        const rows = [...state.activity.snippets.values()]
          .filter((s) => s.projectId === filter.projectId)
          .filter((s) => filter.authorId === undefined || s.authorId === filter.authorId)
          .filter((s) => filter.visibilities === undefined || filter.visibilities.includes(s.visibility))
          .sort((a, b) => b.id - a.id)
          .map((s) => snippetRecord(state, s));
        return offsetPage(rows, page, (r) => r);
      }),
    removeSnippet: (id) =>
      run((state) => {
        if (!state.activity.snippets.delete(id)) return false;
        state.reviews.snippetDescriptions.delete(id);
        for (const [noteId, note] of state.activity.notes) if (note.noteableType === "Snippet" && note.noteableId === id) state.activity.notes.delete(noteId);
        return true;
      }),
  };
}
