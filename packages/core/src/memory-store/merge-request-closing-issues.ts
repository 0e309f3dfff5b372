/**
 * In-memory {@link MergeRequestClosingIssuesRepository}. Rows of a removed merge request or issue
 * stay in the table but are never read: every read checks that both still exist (memory ids are
 * never reused).
 */
import type { ClosingMergeRequestCount, MergeRequestClosingIssuesRepository } from "../ports/merge-request-closing-issues-store.js";
import type { MemoryState, Runner } from "./state.js";

/** The live issue ids `mergeRequestId` closes (none when the merge request is gone). */
export function closingIssueIds(state: MemoryState, mergeRequestId: number): number[] {
  if (!state.activity.mergeRequests.has(mergeRequestId)) return [];
  return (state.mrReviews.closingIssues.get(mergeRequestId) ?? []).filter((id) => state.activity.issues.has(id));
}

/** The in-memory closing-issues repository. */
export function memoryMergeRequestClosingIssues(run: Runner): MergeRequestClosingIssuesRepository {
  return {
    replace: (mergeRequestId, issueIds) =>
      run((s) => {
        if (!s.activity.mergeRequests.has(mergeRequestId)) return;
        const ids = [...new Set(issueIds)].filter((id) => s.activity.issues.has(id)).sort((a, b) => a - b);
        if (ids.length === 0) s.mrReviews.closingIssues.delete(mergeRequestId);
        else s.mrReviews.closingIssues.set(mergeRequestId, ids);
      }),
    issueIdsOf: (mergeRequestId) => run((s) => closingIssueIds(s, mergeRequestId)),
    countsByProject: (issueIds) =>
      run((s) => {
        const counts = new Map<number, Map<number, number>>(issueIds.map((id) => [id, new Map()]));
        for (const mergeRequestId of s.mrReviews.closingIssues.keys()) {
          const mr = s.activity.mergeRequests.get(mergeRequestId);
          if (mr === undefined) continue;
          for (const issueId of closingIssueIds(s, mergeRequestId)) {
            const perProject = counts.get(issueId);
            if (perProject !== undefined) perProject.set(mr.projectId, (perProject.get(mr.projectId) ?? 0) + 1);
          }
        }
        return new Map(
          [...counts].map(([issueId, perProject]): [number, ClosingMergeRequestCount[]] => [
            issueId,
            [...perProject].sort(([a], [b]) => a - b).map(([projectId, count]) => ({ projectId, count })),
          ]),
        );
      }),
  };
}
