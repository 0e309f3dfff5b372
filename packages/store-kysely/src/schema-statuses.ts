/** Tables of commit statuses, external pipelines and merge-request extras (migration 0019_commit_statuses). */
import type { Generated } from "kysely";
import type { DbBool, DbDate } from "./schema-values.js";

/** One external pipeline: a sha and ref statuses were posted for. */
export interface PipelinesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  sha: string;
  ref: string;
  status: string;
  user_id: number | null;
  created_at: DbDate;
  updated_at: DbDate;
  started_at: DbDate | null;
  finished_at: DbDate | null;
}

/** One commit status. */
export interface CommitStatusesTable {
  id: Generated<number>;
  project_id: number;
  pipeline_id: number;
  sha: string;
  ref: string;
  name: string;
  status: string;
  description: string | null;
  target_url: string | null;
  coverage: number | null;
  author_id: number | null;
  retried: DbBool;
  created_at: DbDate;
  updated_at: DbDate;
  started_at: DbDate | null;
  finished_at: DbDate | null;
}

/** An assignee or reviewer of a merge request; `position` keeps the order they were set in. */
export interface MergeRequestPeopleTable {
  merge_request_id: number;
  role: string;
  user_id: number;
  position: number;
}

/** Source-branch removal and the automatic merge of a merge request. */
export interface MergeRequestSettingsTable {
  merge_request_id: number;
  force_remove_source_branch: DbBool;
  auto_merge_user_id: number | null;
  auto_merge_sha: string | null;
  auto_merge_remove_source_branch: DbBool | null;
  auto_merge_created_at: DbDate | null;
  /** 0040: the merge request's milestone (cleared when the milestone is deleted). */
  milestone_id: number | null;
  /** 0041: only project members may comment (null until first set). */
  discussion_locked: DbBool | null;
  /** 0041: squash the commits when it merges (null: false). */
  squash: DbBool | null;
  /** 0041: the squash commit its merge made. */
  squash_commit_sha: string | null;
}

export interface StatusesDatabase {
  forgekit_pipelines: PipelinesTable;
  forgekit_commit_statuses: CommitStatusesTable;
  forgekit_merge_request_people: MergeRequestPeopleTable;
  forgekit_merge_request_settings: MergeRequestSettingsTable;
}

/** The tables, dependants first. */
export const STATUSES_TABLES = ["forgekit_merge_request_settings", "forgekit_merge_request_people", "forgekit_commit_statuses", "forgekit_pipelines"] as const;
