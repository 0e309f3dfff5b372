/** Schemas of the repository entities: commits, branches, tags, trees, diffs, statuses, pipelines, protected refs. */
import * as z from "zod";
import type { protectedBranchEntity, protectedTagEntity } from "../../protected-refs/entities.js";
import type { branchEntity, commitDetailEntity, commitEntity, diffEntity, tagEntity, treeEntity } from "../../repository-api/entities.js";
import type { commitStatusEntity, pipelineBasicEntity, pipelineEntity } from "../../statuses/entities.js";
import { type Fits, type Holds, int, timestamp, url, userBasicSchema } from "./common.js";

const diffStatsSchema = z.object({ additions: int, deletions: int, total: int });

export const commitSchema = z
  .object({
    id: z.string(),
    short_id: z.string(),
    created_at: timestamp,
    parent_ids: z.array(z.string()),
    title: z.string(),
    message: z.string(),
    author_name: z.string(),
    author_email: z.string(),
    authored_date: timestamp,
    committer_name: z.string(),
    committer_email: z.string(),
    committed_date: timestamp,
    trailers: z.record(z.string(), z.string()),
    extended_trailers: z.record(z.string(), z.array(z.string())),
    web_url: url,
    stats: diffStatsSchema.optional().meta({ description: "commit lists with `with_stats=true` only" }),
  })
  .meta({ description: "Commit (reference `Commit`)" });

export const treeEntrySchema = z.object({ id: z.string(), name: z.string(), type: z.enum(["tree", "blob", "commit"]), path: z.string(), mode: z.string() }).meta({ description: "Repository tree entry (reference `TreeObject`)" });

export const branchSchema = z
  .object({
    name: z.string(),
    commit: commitSchema.nullable(),
    merged: z.boolean(),
    protected: z.boolean(),
    developers_can_push: z.boolean(),
    developers_can_merge: z.boolean(),
    can_push: z.boolean(),
    default: z.boolean(),
    web_url: url,
  })
  .meta({ description: "Branch (reference `Branch`)" });

export const tagSchema = z
  .object({
    name: z.string(),
    message: z.string().nullable(),
    target: z.string(),
    commit: commitSchema.nullable(),
    release: z.object({ tag_name: z.string(), description: z.string() }).nullable(),
    protected: z.boolean(),
    created_at: timestamp.nullable(),
  })
  .meta({ description: "Tag (reference `Tag`)" });

export const diffSchema = z
  .object({
    diff: z.string(),
    new_path: z.string(),
    old_path: z.string(),
    a_mode: z.string().nullable(),
    b_mode: z.string().nullable(),
    new_file: z.boolean(),
    renamed_file: z.boolean(),
    deleted_file: z.boolean(),
    generated_file: z.boolean(),
    too_large: z.boolean(),
  })
  .meta({ description: "File diff (reference `Diff`)" });

const pipelineStatus = z.enum(["created", "pending", "running", "success", "failed", "canceled", "skipped"]);

export const commitStatusSchema = z
  .object({
    id: int,
    sha: z.string(),
    ref: z.string().nullable(),
    status: pipelineStatus,
    name: z.string(),
    target_url: z.string().nullable(),
    description: z.string().nullable(),
    created_at: timestamp.nullable(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    allow_failure: z.boolean(),
    coverage: z.number().nullable(),
    pipeline_id: int.nullable(),
    author: userBasicSchema.nullable(),
  })
  .meta({ description: "Commit status (reference `CommitStatus`)" });

export const pipelineBasicSchema = z
  .object({ id: int, iid: int, project_id: int, sha: z.string(), ref: z.string().nullable(), status: pipelineStatus, source: z.string(), created_at: timestamp.nullable(), updated_at: timestamp.nullable(), web_url: url })
  .meta({ description: "External pipeline made by commit statuses (reference `PipelineBasic`)" });

export const pipelineSchema = pipelineBasicSchema
  .extend({
    before_sha: z.string().meta({ description: "the null object id: no push made an external pipeline" }),
    tag: z.boolean(),
    yaml_errors: z.null(),
    user: userBasicSchema.nullable(),
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    committed_at: z.null(),
    duration: int.nullable().meta({ description: "seconds from start to finish" }),
    queued_duration: z.null(),
    coverage: z.string().nullable().meta({ description: "the mean coverage of its latest statuses, two decimals" }),
    detailed_status: z.object({
      icon: z.string(),
      text: z.string(),
      label: z.string(),
      group: pipelineStatus,
      tooltip: z.string(),
      has_details: z.boolean(),
      details_path: z.string(),
      illustration: z.null(),
      favicon: z.string(),
    }),
  })
  .meta({ description: "External pipeline with its user, times, coverage and detailed status (reference `Pipeline`)" });

export const commitDetailSchema = commitSchema
  .extend({
    stats: diffStatsSchema.optional().meta({ description: "unless `stats=false`" }),
    status: pipelineStatus.nullable().meta({ description: "the status of its newest pipeline" }),
    project_id: int,
    last_pipeline: pipelineBasicSchema.nullable(),
  })
  .meta({ description: "Commit with stats, status and pipeline (reference `CommitDetail`)" });

const accessSchema = z.object({ id: int, access_level: int, access_level_description: z.string(), user_id: int.nullable(), group_id: int.nullable() });

export const protectedBranchSchema = z
  .object({
    id: int,
    name: z.string(),
    push_access_levels: z.array(accessSchema),
    merge_access_levels: z.array(accessSchema),
    unprotect_access_levels: z.array(accessSchema),
    allow_force_push: z.boolean(),
    code_owner_approval_required: z.boolean(),
    inherited: z.boolean(),
  })
  .meta({ description: "Protected branch (reference `ProtectedBranch`)" });

export const protectedTagSchema = z.object({ name: z.string(), create_access_levels: z.array(accessSchema) }).meta({ description: "Protected tag (reference `ProtectedTag`)" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type RepositorySchemasMatchRenderers = [
  Holds<Fits<typeof commitSchema, ReturnType<typeof commitEntity>>>,
  Holds<Fits<typeof treeEntrySchema, ReturnType<typeof treeEntity>>>,
  Holds<Fits<typeof branchSchema, ReturnType<typeof branchEntity>>>,
  Holds<Fits<typeof tagSchema, ReturnType<typeof tagEntity>>>,
  Holds<Fits<typeof diffSchema, ReturnType<typeof diffEntity>>>,
  Holds<Fits<typeof commitStatusSchema, ReturnType<typeof commitStatusEntity>>>,
  Holds<Fits<typeof pipelineBasicSchema, ReturnType<typeof pipelineBasicEntity>>>,
  Holds<Fits<typeof pipelineSchema, ReturnType<typeof pipelineEntity>>>,
  Holds<Fits<typeof commitDetailSchema, ReturnType<typeof commitDetailEntity>>>,
  Holds<Fits<typeof protectedBranchSchema, ReturnType<typeof protectedBranchEntity>>>,
  Holds<Fits<typeof protectedTagSchema, ReturnType<typeof protectedTagEntity>>>,
];
