/**
 * Storage port of which issues merge requests close (DESIGN §5; reference table
 * `merge_requests_closing_issues`, written by `MergeRequest#cache_merge_request_closes_issues!`):
 * one row per (merge request, issue), written when an open merge request is created, edited,
 * reopened or its source branch moves, and kept after it merges. The issue entity's
 * `merge_requests_count` and `GET /projects/:id/issues/:issue_iid/closed_by` read it (merge
 * requests that close an issue: `ReviewRepository.listMergeRequests` with `closesIssueId`).
 * Reached as `Store.mergeRequestClosingIssues`; rows go with their merge request and with their
 * issue. The general contract of ports/store.ts applies.
 */

/** How many merge requests of one project close an issue. */
export interface ClosingMergeRequestCount {
  /** The project of the merge requests. */
  projectId: number;
  count: number;
}

/** The stored merge request → closing issues relation. */
export interface MergeRequestClosingIssuesRepository {
  /**
   * Replaces the issues the merge request closes with `issueIds` (repeats count once; empty
   * removes them all). Ids of issues that do not exist are skipped; an unknown merge request
   * writes nothing. Two callers racing on one merge request never leave duplicate rows; to have
   * the later caller's set win, hold the merge request's row in the same transaction (an update
   * of it does).
   */
  replace(mergeRequestId: number, issueIds: readonly number[]): Promise<void>;
  /** The ids of the issues the merge request closes, ascending; `[]` for none or an unknown merge request. */
  issueIdsOf(mergeRequestId: number): Promise<number[]>;
  /**
   * For each of `issueIds`: the merge requests that close it, counted per merge-request project
   * (projects ascending; a project without any is absent). Every asked id is a key (`[]` for none).
   * One query for all of them, so a page of issues costs one call.
   */
  countsByProject(issueIds: readonly number[]): Promise<Map<number, ClosingMergeRequestCount[]>>;
}
