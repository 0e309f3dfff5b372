/** In-memory {@link MergeRequestExtrasRepository}: assignees, reviewers, source-branch removal and automatic merges. */
import { emptyMergeRequestExtras as empty, type MergeRequestExtras, type MergeRequestExtrasRepository } from "../ports/merge-request-extras-store.js";
import { copy, type MemoryState, type Runner } from "./state.js";


/** Whether the merge request's `role` list matches a list filter's value (a user id, "none" or "any"). */
export function hasPerson(state: MemoryState, mergeRequestId: number, role: "assigneeIds" | "reviewerIds", value: number | "none" | "any"): boolean {
  const ids = state.mrExtras.get(mergeRequestId)?.[role] ?? [];
  return value === "none" ? ids.length === 0 : value === "any" ? ids.length > 0 : ids.includes(value);
}

/** Whether the merge request's milestone matches a list filter's value. */
export function hasMilestone(state: MemoryState, mergeRequestId: number, value: { id: number } | { title: string } | "none" | "any"): boolean {
  const id = state.mrExtras.get(mergeRequestId)?.milestoneId ?? null;
  if (value === "none" || value === "any") return (id === null) === (value === "none");
  if ("id" in value) return id === value.id;
  return id !== null && state.activity.milestones.get(id)?.title === value.title;
}

/** Clears a deleted milestone from the merge requests that had it. */
export function forgetMergeRequestMilestone(state: MemoryState, milestoneId: number): void {
  for (const [id, stored] of [...state.mrExtras]) if (stored.milestoneId === milestoneId) state.mrExtras.set(id, { ...stored, milestoneId: null });
}

/** Drops a removed user from every assignee and reviewer list, and the automatic merges they set. */
export function forgetMergeRequestPerson(state: MemoryState, userId: number): void {
  for (const [id, stored] of [...state.mrExtras]) {
    const row = { ...stored, assigneeIds: stored.assigneeIds.filter((user) => user !== userId), reviewerIds: stored.reviewerIds.filter((user) => user !== userId) };
    if (row.autoMerge?.userId === userId) row.autoMerge = null;
    state.mrExtras.set(id, row);
  }
}

export function memoryMergeRequestExtras(run: Runner): MergeRequestExtrasRepository {
  const edit = (id: number, change: (row: MergeRequestExtras) => void) =>
    run((s) => {
      const row = { ...(s.mrExtras.get(id) ?? empty()) };
      change(row);
      s.mrExtras.set(id, row);
    });
  return {
    extras: (ids) => run((s) => new Map(ids.map((id) => [id, copy(s.activity.mergeRequests.has(id) ? (s.mrExtras.get(id) ?? empty()) : empty())]))),
    setAssignees: (id, userIds) => edit(id, (row) => void (row.assigneeIds = [...new Set(userIds)])),
    setReviewers: (id, userIds) => edit(id, (row) => void (row.reviewerIds = [...new Set(userIds)])),
    setForceRemoveSourceBranch: (id, value) => edit(id, (row) => void (row.forceRemoveSourceBranch = value)),
    setSquash: (id, squash) => edit(id, (row) => void (row.squash = squash)),
    setSquashCommitSha: (id, sha) => edit(id, (row) => void (row.squashCommitSha = sha)),
    setDiscussionLocked: (id, locked) => edit(id, (row) => void (row.discussionLocked = locked)),
    setMilestone: (id, milestoneId) =>
      run((s) => {
        if (milestoneId !== null && !s.activity.milestones.has(milestoneId)) throw new Error(`milestone ${milestoneId} does not exist`);
        s.mrExtras.set(id, { ...(s.mrExtras.get(id) ?? empty()), milestoneId });
      }),
    setAutoMerge: (id, autoMerge) => edit(id, (row) => void (row.autoMerge = autoMerge === null ? null : copy(autoMerge))),
    takeAutoMerge: (id, sha) =>
      run((s) => {
        const row = s.mrExtras.get(id);
        if (row?.autoMerge?.sha !== sha) return false;
        s.mrExtras.set(id, { ...row, autoMerge: null });
        return true;
      }),
  };
}
