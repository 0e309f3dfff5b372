/**
 * JSON shapes of merge requests (reference `API::Entities::MergeRequestBasic`, `MergeRequest`).
 * What forgekit has no data for (time tracking, award emoji) carries the value the
 * reference shows for a merge request without it. Pipelines are the external pipelines posted
 * commit statuses make (statuses/): `pipeline` and `head_pipeline` are the newest one of the source
 * tip on the source branch, null without statuses. `merged_by` and
 * `merge_status` stay beside `merge_user` and `detailed_merge_status` until v5 (spec "Versioning").
 */
import type { Project, User } from "../accounts/types.js";
import { iso } from "../accounts/entities/time.js";
import { userBasic } from "../accounts/entities/users.js";
import type { MergeRequestExtras } from "../ports/merge-request-extras-store.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { PipelineRecord } from "../ports/statuses-store.js";
import { pipelineBasicEntity, pipelineEntity } from "../statuses/index.js";
import { isDraftTitle } from "../activity/types.js";
import { taskCompletion } from "../activity/issuable-facts.js";
import { milestoneEntity } from "../activity/entities.js";
import type { Milestone } from "../activity/types.js";
import type { GitFacts } from "./git-facts.js";

/** What rendering one merge request needs besides its row. */
export interface MergeRequestView {
  mr: MergeRequestRecord;
  project: Project;
  users: ReadonlyMap<number, User>;
  labels: readonly string[];
  userNotesCount: number;
  /** Who closed it, while it is closed (activity's `closerId`). */
  closedById: number | null;
  git: GitFacts;
  extras: MergeRequestExtras;
  /** Its milestone (a milestone of the project), or null. */
  milestone: Milestone | null;
  /** The clock's UTC day, `YYYY-MM-DD` (the milestone's `expired`). */
  today: string;
  /** Whether it is its author's first contribution to the project (reference `first_contribution?`). */
  firstContribution: boolean;
  /** False while unresolved discussions block it (only where the project requires them resolved). */
  blockingDiscussionsResolved: boolean;
  /** The head pipeline with its coverage, or null. */
  head: { pipeline: PipelineRecord; coverage: number | null } | null;
}

/** Whether the automatic merge is set and still for the source tip (a push makes it lapse). */
export const autoMergeActive = (v: Pick<MergeRequestView, "mr" | "extras" | "git">): boolean => v.mr.state === "opened" && v.extras.autoMerge !== null && v.extras.autoMerge.sha === v.git.sha;

const projectUrl = (baseUrl: string, project: Project) => `${baseUrl.replace(/\/$/, "")}/${project.fullPath}`;

/** The fields every merge-request shape opens with (the basic entity, the approvals entity). */
export function mergeRequestHead(mr: MergeRequestRecord) {
  return { id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, description: mr.description, state: mr.state, created_at: iso(mr.createdAt), updated_at: iso(mr.updatedAt) };
}

/** `MergeRequestBasic` plus the fields the list shows. */
export function mergeRequestBasic(baseUrl: string, v: MergeRequestView) {
  const { mr, project } = v;
  const user = (id: number | null) => {
    const u = id === null ? undefined : v.users.get(id);
    return u === undefined ? null : userBasic(u, baseUrl);
  };
  const auto = autoMergeActive(v) ? v.extras.autoMerge : null;
  const mergeUser = mr.state === "merged" ? user(mr.mergeUserId) : auto === null ? null : user(auto.userId);
  const people = (ids: readonly number[]) => ids.map(user).filter((u) => u !== null);
  const assignees = people(v.extras.assigneeIds);
  return {
    ...mergeRequestHead(mr),
    merged_by: mr.state === "merged" ? mergeUser : null,
    merge_user: mergeUser,
    merged_at: iso(mr.mergedAt),
    closed_by: user(v.closedById),
    closed_at: iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: v.userNotesCount,
    upvotes: 0,
    downvotes: 0,
    author: user(mr.authorId),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: people(v.extras.reviewerIds),
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    labels: [...v.labels],
    draft: isDraftTitle(mr.title),
    work_in_progress: isDraftTitle(mr.title),
    milestone: v.milestone === null ? null : milestoneEntity(v.milestone, project, baseUrl, v.today),
    merge_when_pipeline_succeeds: auto !== null,
    merge_status: v.git.mergeStatus,
    detailed_merge_status: v.git.detailedMergeStatus,
    sha: v.git.sha,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: v.extras.squashCommitSha,
    discussion_locked: v.extras.discussionLocked,
    should_remove_source_branch: auto === null ? null : auto.removeSourceBranch,
    force_remove_source_branch: v.extras.forceRemoveSourceBranch,
    prepared_at: iso(mr.createdAt),
    reference: `!${mr.iid}`,
    references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${project.fullPath}!${mr.iid}` },
    web_url: `${projectUrl(baseUrl, project)}/-/merge_requests/${mr.iid}`,
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: v.extras.squash,
    // Reference `squash_on_merge?`: its own `squash`, or a project that always squashes (forgekit projects have no such setting).
    squash_on_merge: v.extras.squash,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: v.git.hasConflicts,
    blocking_discussions_resolved: v.blockingDiscussionsResolved,
  };
}

/** `MergeRequest` (show, create, update, merge): the basic fields plus diff refs and counts. */
export function mergeRequestEntity(baseUrl: string, v: MergeRequestView, viewerCanMerge: boolean) {
  return {
    ...mergeRequestBasic(baseUrl, v),
    subscribed: false,
    changes_count: v.git.changesCount,
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: v.head === null ? null : pipelineBasicEntity(baseUrl, v.project, v.head.pipeline),
    head_pipeline: v.head === null ? null : pipelineEntity(baseUrl, v.project, v.users, v.head.pipeline, v.head.coverage),
    diff_refs: v.git.diffRefs,
    merge_error: null,
    first_contribution: v.firstContribution,
    user: { can_merge: viewerCanMerge },
  };
}
