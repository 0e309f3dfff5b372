/** Schemas of merge requests (reference `MergeRequestBasic`, `MergeRequest`, `MergeRequestChanges`) and their versions (`MergeRequestDiff`, `MergeRequestDiffFull`). */
import * as z from "zod";
import type { mergeRequestBasic, mergeRequestEntity } from "../../merge-requests-api/entities.js";
import type { versionEntity, versionFullEntity } from "../../merge-request-versions/entities.js";
import { type Fits, type Holds, int, timeStatsSchema, timestamp, url, userBasicSchema } from "./common.js";
import { milestoneSchema } from "./activity.js";
import { labelBasicSchema } from "./labels.js";
import { commitSchema, diffSchema, pipelineBasicSchema, pipelineSchema } from "./repository.js";

const references = z.object({ short: z.string(), relative: z.string(), full: z.string() });
const mergeRequestState = z.enum(["opened", "closed", "merged"]);

export const mergeRequestBasicSchema = z
  .object({
    id: int,
    iid: int,
    project_id: int,
    title: z.string(),
    description: z.string(),
    state: mergeRequestState,
    created_at: timestamp.nullable(),
    updated_at: timestamp.nullable(),
    merged_by: userBasicSchema.nullable().meta({ description: "deprecated: `merge_user`" }),
    merge_user: userBasicSchema.nullable().meta({ description: "who merged it, or who set the automatic merge while it is set" }),
    merged_at: timestamp.nullable(),
    closed_by: userBasicSchema.nullable().meta({ description: "who closed it, while it is closed" }),
    closed_at: timestamp.nullable(),
    target_branch: z.string(),
    source_branch: z.string(),
    user_notes_count: int,
    upvotes: int,
    downvotes: int,
    author: userBasicSchema.nullable(),
    assignees: z.array(userBasicSchema),
    assignee: userBasicSchema.nullable().meta({ description: "the first of `assignees`" }),
    reviewers: z.array(userBasicSchema),
    source_project_id: int,
    target_project_id: int,
    labels: z.array(z.union([z.string(), labelBasicSchema])).meta({ description: "names; label objects with `with_labels_details=true`" }),
    draft: z.boolean(),
    work_in_progress: z.boolean().meta({ description: "deprecated: `draft`" }),
    milestone: milestoneSchema.nullable().meta({ description: "a milestone of the project (`milestone_id` on create and update)" }),
    merge_when_pipeline_succeeds: z.boolean().meta({ description: "whether the automatic merge is set" }),
    merge_status: z.enum(["can_be_merged", "cannot_be_merged", "unchecked"]).meta({ description: "deprecated: `detailed_merge_status`" }),
    detailed_merge_status: z.enum(["mergeable", "conflict", "not_open", "broken_status", "draft_status", "not_approved", "discussions_not_resolved", "ci_must_pass"]),
    sha: z.string().nullable().meta({ description: "the source branch's tip" }),
    merge_commit_sha: z.string().nullable(),
    squash_commit_sha: z.string().nullable().meta({ description: "the squash commit its merge made" }),
    discussion_locked: z.boolean().nullable().meta({ description: "null until set; while true only project members comment" }),
    should_remove_source_branch: z.boolean().nullable(),
    force_remove_source_branch: z.boolean(),
    prepared_at: timestamp.nullable(),
    reference: z.string().meta({ description: "deprecated: `references`" }),
    references,
    web_url: url,
    time_stats: timeStatsSchema,
    squash: z.boolean(),
    squash_on_merge: z.boolean(),
    task_completion_status: z.object({ count: int, completed_count: int }),
    has_conflicts: z.boolean(),
    blocking_discussions_resolved: z.boolean(),
  })
  .meta({ description: "Merge request as lists show it (reference `MergeRequestBasic`)" });

export const mergeRequestSchema = mergeRequestBasicSchema
  .extend({
    subscribed: z.boolean(),
    changes_count: z.string().nullable().meta({ description: "files changed, as a string; null without a diff" }),
    latest_build_started_at: z.null(),
    latest_build_finished_at: z.null(),
    first_deployed_to_production_at: z.null(),
    pipeline: pipelineBasicSchema.nullable().meta({ description: "the newest external pipeline of the source tip" }),
    head_pipeline: pipelineSchema.nullable(),
    diff_refs: z.object({ base_sha: z.string(), head_sha: z.string(), start_sha: z.string() }).nullable(),
    merge_error: z.null(),
    first_contribution: z.boolean(),
    user: z.object({ can_merge: z.boolean() }).meta({ description: "what the caller may do" }),
  })
  .meta({ description: "Merge request (reference `MergeRequest`)" });

export const mergeRequestChangesSchema = mergeRequestSchema
  .extend({ changes: z.array(diffSchema), overflow: z.boolean() })
  .meta({ description: "Merge request with its diffs (reference `MergeRequestChanges`; deprecated: `…/diffs`)" });

export const mergeRequestVersionSchema = z
  .object({
    id: int,
    head_commit_sha: z.string(),
    base_commit_sha: z.string(),
    start_commit_sha: z.string(),
    created_at: timestamp.nullable(),
    merge_request_id: int,
    state: z.string().meta({ description: "always `collected`: diffs are read from git on demand" }),
    real_size: z.string().nullable().meta({ description: "files changed from base to head, as a string" }),
    patch_id_sha: z.string().nullable().meta({ description: "`git patch-id --stable` of the diff; null for an empty one" }),
  })
  .meta({ description: "Merge request version (reference `MergeRequestDiff`)" });

export const mergeRequestVersionFullSchema = mergeRequestVersionSchema
  .extend({ commits: z.array(commitSchema).meta({ description: "newest first" }), diffs: z.array(diffSchema) })
  .meta({ description: "Merge request version with its commits and diffs (reference `MergeRequestDiffFull`)" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type MergeRequestSchemasMatchRenderers = [
  Holds<Fits<typeof mergeRequestBasicSchema, ReturnType<typeof mergeRequestBasic>>>,
  Holds<Fits<typeof mergeRequestSchema, ReturnType<typeof mergeRequestEntity>>>,
  Holds<Fits<typeof mergeRequestVersionSchema, ReturnType<typeof versionEntity>>>,
  Holds<Fits<typeof mergeRequestVersionFullSchema, ReturnType<typeof versionFullEntity>>>,
];
