/** Tables of the activity domain and its events (migration 0003_events), as Kysely sees them. */
import type { Generated } from "kysely";
import type { DbBool, DbDate } from "./schema-values.js";

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string;
  confidential: DbBool;
  state: string;
  author_id: number;
  created_at: DbDate;
  updated_at: DbDate;
  closed_at: DbDate | null;
  /** The issue's milestone (0012_issue_details). */
  milestone_id: Generated<number | null>;
  /** `none` or the import source that wrote the issue (0032_imported_from). */
  imported_from: Generated<string>;
  /** `YYYY-MM-DD` text (0033_issue_due_dates). */
  due_date: Generated<string | null>;
  /** Null until first set (0037_issue_discussion_locks). */
  discussion_locked: Generated<DbBool | null>;
}

/** Group milestones (0015_group_milestones). */
export interface GroupMilestonesTable {
  id: Generated<number>;
  group_id: number;
  iid: number;
  title: string;
  description: string;
  state: string;
  created_at: DbDate;
  updated_at: DbDate;
  /** `YYYY-MM-DD` text (0036_group_milestone_dates). */
  start_date: Generated<string | null>;
  /** `YYYY-MM-DD` text (0036_group_milestone_dates). */
  due_date: Generated<string | null>;
}

/** An issue's assignees (0012_issue_details). */
export interface IssueAssigneesTable {
  issue_id: number;
  user_id: number;
}

export interface MergeRequestsTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string;
  state: string;
  author_id: number;
  source_branch: string;
  target_branch: string;
  created_at: DbDate;
  updated_at: DbDate;
  merged_at: DbDate | null;
  closed_at: DbDate | null;
}

export interface MilestonesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string;
  state: string;
  /** `YYYY-MM-DD` text (0025_milestone_dates). */
  start_date: string | null;
  /** `YYYY-MM-DD` text (0025_milestone_dates). */
  due_date: string | null;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface SnippetsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number;
  title: string;
  file_name: string;
  content: string;
  visibility: string;
  created_at: DbDate;
  updated_at: DbDate;
  /** The shard of the snippet's repository; NULL: not recorded yet (rows from before 0009_storage_moves). */
  repository_storage: Generated<string | null>;
  repository_read_only: Generated<DbBool>;
  /** `none` or the import source that wrote the snippet (0032_imported_from). */
  imported_from: Generated<string>;
}

export interface NotesTable {
  id: Generated<number>;
  project_id: number | null;
  noteable_type: string;
  noteable_id: number;
  author_id: number;
  body: string;
  system: DbBool;
  created_at: DbDate;
  updated_at: DbDate;
  /** 40 hex digits (0027_note_discussions; NULL only while that migration backfills). */
  discussion_id: string | null;
  /** NULL, `DiscussionNote` or `DiffNote`. */
  type: Generated<string | null>;
  /** A diff note's position as JSON text. */
  position: Generated<string | null>;
  commit_id: Generated<string | null>;
  resolved_at: Generated<DbDate | null>;
  resolved_by_id: Generated<number | null>;
  /** `none` or the import source that wrote the note (0032_imported_from). */
  imported_from: Generated<string>;
}

export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_iid: number | null;
  target_title: string | null;
  /** 0 project, 1 signed_in, 2 members, 3 reporters: a viewer of rank r sees audiences ≤ r. */
  audience: number;
  audience_user_id: number | null;
  /** JSON `{"push": …}` or `{"note": …}`, or null. */
  payload: string | null;
  created_at: DbDate;
}

/** An event counter row (migration 0016_event_counts): `n` events of the project in one slot, bucket and audience. */
export interface EventProjectCountsTable {
  project_id: number;
  /** An action, or `*` for any. */
  action: string;
  /** A target type, or `*` for any. */
  target_type: string;
  /** 32-day bucket of `created_at` (repositories/event-counts.ts). */
  bucket: number;
  audience: number;
  n: number;
}

/** The same counters per author and project. */
export interface EventAuthorCountsTable extends EventProjectCountsTable {
  author_id: number;
}

/** The activity tables by name. */
export interface ActivityDatabase {
  forgekit_issues: IssuesTable;
  forgekit_merge_requests: MergeRequestsTable;
  forgekit_milestones: MilestonesTable;
  forgekit_snippets: SnippetsTable;
  forgekit_notes: NotesTable;
  forgekit_events: EventsTable;
  forgekit_event_project_counts: EventProjectCountsTable;
  forgekit_event_author_counts: EventAuthorCountsTable;
  forgekit_issue_assignees: IssueAssigneesTable;
  forgekit_group_milestones: GroupMilestonesTable;
}

/** The activity tables, dependants first (deletion order). */
export const ACTIVITY_TABLES = [
  "forgekit_event_author_counts",
  "forgekit_event_project_counts",
  "forgekit_events",
  "forgekit_group_milestones",
  "forgekit_issue_assignees",
  "forgekit_notes",
  "forgekit_snippets",
  "forgekit_milestones",
  "forgekit_merge_requests",
  "forgekit_issues",
] as const satisfies readonly (keyof ActivityDatabase)[];
