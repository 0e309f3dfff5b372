/**
 * The project's merge checks on one merge request (reference `MergeRequest#mergeable_discussions_state?`
 * and `#mergeable_ci_state?`, with the project settings `only_allow_merge_if_all_discussions_are_resolved`
 * and `only_allow_merge_if_pipeline_succeeds`): which check, if any, keeps it from merging, as its
 * `detailed_merge_status`.
 */
import type { Project } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import type { MergeRequestRecord } from "../ports/review-store.js";

/** The `detailed_merge_status` of a failed merge check. */
export type MergeCheckFailure = "discussions_not_resolved" | "ci_must_pass";

/**
 * The first merge check of the project the merge request fails, or null when it passes them all.
 * `sourceSha` is the source branch's tip (null: no tip, so no pipeline for it); `skipCi` leaves the
 * pipeline check out (reference `mergeable?(skip_ci_check:)`, for a merge set to happen when the
 * running pipeline succeeds).
 */
export async function failedMergeCheck(config: ForgekitConfig, project: Project, mr: MergeRequestRecord, sourceSha: string | null, skipCi = false): Promise<MergeCheckFailure | null> {
  const { store } = config;
  if (project.mergeChecks.discussionsMustBeResolved && (await store.discussions.countUnresolved("MergeRequest", mr.id)) > 0) return "discussions_not_resolved";
  if (project.mergeChecks.pipelineMustSucceed && !skipCi) {
    // Reference `mergeable_ci_state?`: the head pipeline (of the source tip) exists and succeeded.
    const pipeline = sourceSha === null ? null : await store.statuses.newestPipeline(project.id, { sha: sourceSha, ref: mr.sourceBranch });
    if (pipeline?.status !== "success") return "ci_must_pass";
  }
  return null;
}
