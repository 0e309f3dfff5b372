/**
 * A project's merge checks as settings (reference `only_allow_merge_if_pipeline_succeeds` and
 * `only_allow_merge_if_all_discussions_are_resolved`): what must hold before a merge request of the
 * project merges. Both off for a new project (reference defaults).
 */

/** The merge checks a project's settings hold. */
export interface ProjectMergeChecks {
  /** The head pipeline of the source branch must have succeeded (reference `only_allow_merge_if_pipeline_succeeds`). */
  pipelineMustSucceed: boolean;
  /** Every resolvable discussion must be resolved (reference `only_allow_merge_if_all_discussions_are_resolved`). */
  discussionsMustBeResolved: boolean;
}

/** A new project's merge checks (reference defaults: none). */
export const DEFAULT_MERGE_CHECKS: Readonly<ProjectMergeChecks> = { pipelineMustSucceed: false, discussionsMustBeResolved: false };
