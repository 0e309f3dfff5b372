/**
 * Storage port of what merge requests carry besides their row (DESIGN §5): assignees, reviewers,
 * the milestone, whether the source branch is removed on merge, and the automatic merge set up by
 * `merge_when_pipeline_succeeds` (reference `MergeRequest#assignees`, `#reviewers`,
 * `merge_params['force_remove_source_branch']`, `auto_merge_enabled`, `merge_user`, `milestone`). Reached as
 * `Store.mergeRequestExtras`. Rows go with their merge request and their user.
 */

/** The automatic merge of one merge request. */
export interface AutoMergeRecord {
  /** Who set it (`merge_user`): the merge is made as this user. */
  userId: number;
  /** The source tip it was set for: a push to the source branch makes it lapse. */
  sha: string;
  /** Remove the source branch when it merges (`should_remove_source_branch` of the request). */
  removeSourceBranch: boolean;
  createdAt: Date;
}

/** What one merge request carries besides its row. */
export interface MergeRequestExtras {
  assigneeIds: number[];
  reviewerIds: number[];
  forceRemoveSourceBranch: boolean;
  autoMerge: AutoMergeRecord | null;
  /** A milestone of the project, or null; cleared when the milestone is deleted. */
  milestoneId: number | null;
  /** Whether only project members may comment (reference `discussion_locked`); null until first set. */
  discussionLocked: boolean | null;
  /** Whether its merge squashes the source commits into one (reference `squash`). */
  squash: boolean;
  /** The squash commit its merge made, or null. */
  squashCommitSha: string | null;
}

/** What a merge request without any extras carries (fresh lists each call: callers fill them). */
export function emptyMergeRequestExtras(): MergeRequestExtras {
  return { assigneeIds: [], reviewerIds: [], forceRemoveSourceBranch: false, autoMerge: null, milestoneId: null, discussionLocked: null, squash: false, squashCommitSha: null };
}

/** The extras of merge requests. */
export interface MergeRequestExtrasRepository {
  /** Extras of each merge request by id; ids without any map to empty extras. Assignees and reviewers in the order they were set. */
  extras(mergeRequestIds: readonly number[]): Promise<Map<number, MergeRequestExtras>>;
  /** Replaces the assignees (empty removes them). */
  setAssignees(mergeRequestId: number, userIds: readonly number[]): Promise<void>;
  /** Replaces the reviewers (empty removes them). */
  setReviewers(mergeRequestId: number, userIds: readonly number[]): Promise<void>;
  /** Sets whether its merge squashes the source commits. */
  setSquash(mergeRequestId: number, squash: boolean): Promise<void>;
  /** Records the squash commit its merge made. */
  setSquashCommitSha(mergeRequestId: number, sha: string): Promise<void>;
  /** Locks (true) or unlocks (false) the discussion. */
  setDiscussionLocked(mergeRequestId: number, locked: boolean): Promise<void>;
  /** Sets (or with null clears) the milestone; the milestone must exist. */
  setMilestone(mergeRequestId: number, milestoneId: number | null): Promise<void>;
  /** Sets whether the source branch is removed when the merge request merges. */
  setForceRemoveSourceBranch(mergeRequestId: number, value: boolean): Promise<void>;
  /** Sets (or with null clears) the automatic merge. */
  setAutoMerge(mergeRequestId: number, autoMerge: AutoMergeRecord | null): Promise<void>;
  /**
   * Clears the automatic merge only if it is still the one set for `sha` (compare-and-set): true
   * when this call cleared it, so of racing callers exactly one acts on it.
   */
  takeAutoMerge(mergeRequestId: number, sha: string): Promise<boolean>;
}
