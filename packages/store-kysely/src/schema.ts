/**
 * The tables forgekit owns in the host's database, as Kysely sees them. Column values are typed
 * loosely where dialects differ (booleans, timestamps); the dialect traits convert both ways.
 */
import { WEB_HOOKS_TABLES, type WebHooksDatabase } from "./schema-webhooks.js";
import { PROTECTED_REFS_TABLES, type ProtectedRefsDatabase } from "./schema-protected-refs.js";
import type { Generated } from "kysely";
import { ACTIVITY_TABLES, type ActivityDatabase } from "./schema-activity.js";
import { IMPORTS_TABLES, type ImportsDatabase } from "./schema-imports.js";
import { LABELS_TABLES, type LabelsDatabase } from "./schema-labels.js";
import { RELEASES_TABLES, type ReleasesDatabase } from "./schema-releases.js";
import type { StorageMovesDatabase } from "./schema-storage-moves.js";
import { STATUSES_TABLES, type StatusesDatabase } from "./schema-statuses.js";
import { REVIEWS_TABLES, type ReviewsDatabase } from "./schema-reviews.js";
import { RATE_LIMITS_TABLES, type RateLimitsDatabase } from "./schema-rate-limits.js";

import type { DbBool, DbDate } from "./schema-values.js";

export type { DbBool, DbDate } from "./schema-values.js";

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Case-folded username: unique, the key of case-insensitive lookups. */
  username_lower: string;
  name: string;
  name_lower: string;
  state: string;
  admin: DbBool;
  bot: string | null;
  two_factor_enabled: DbBool;
  private_profile: DbBool;
  avatar_url: string | null;
  password_hash: string | null;
  namespace_id: number | null;
  /** The host's id for the user (0014_users_external_id): unique, null when not synced. */
  external_id: string | null;
  /** The user's last UTC activity day, `YYYY-MM-DD` (0039_user_last_activity): null until the first. */
  last_activity_on: string | null;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface EmailsTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  email_lower: string;
  is_primary: DbBool;
  confirmed_at: DbDate | null;
  created_at: DbDate;
}

export interface NamespacesTable {
  id: Generated<number>;
  kind: string;
  path: string;
  path_lower: string;
  name: string;
  name_lower: string;
  full_path: string;
  full_path_lower: string;
  parent_id: number | null;
  owner_id: number | null;
  visibility: string;
  description: string;
  created_at: DbDate;
  updated_at: DbDate;
  /** A group's wiki repository: its shard (NULL: not recorded yet, or a user namespace) and read-only flag (0009_storage_moves). */
  wiki_repository_storage: Generated<string | null>;
  wiki_repository_read_only: Generated<DbBool>;
}

/** Closure table: one row per (namespace, ancestor-or-self) with the distance between them. */
export interface NamespaceAncestorsTable {
  namespace_id: number;
  ancestor_id: number;
  depth: number;
}

export interface ProjectsTable {
  id: Generated<number>;
  namespace_id: number;
  path: string;
  path_lower: string;
  name: string;
  name_lower: string;
  full_path: string;
  full_path_lower: string;
  description: string;
  visibility: string;
  creator_id: number | null;
  repository_storage: string;
  repository_read_only: DbBool;
  default_branch: string | null;
  /** Since 0021; `null` for rows from before (unknown until read from the repository). */
  repository_empty: DbBool | null;
  /** Since 0021: the default branch's root README path; `''` none, `null` not known. */
  readme_path: string | null;
  /** Since 0021: feature levels as the reference's numbers (0 disabled, 10 private, 20 enabled). */
  issues_access_level: Generated<number>;
  merge_requests_access_level: Generated<number>;
  repository_access_level: Generated<number>;
  snippets_access_level: Generated<number>;
  /** Since 0034: the merge checks (accounts/merge-checks.ts), false for rows from before. */
  only_allow_merge_if_pipeline_succeeds: Generated<DbBool>;
  only_allow_merge_if_all_discussions_are_resolved: Generated<DbBool>;
  created_at: DbDate;
  updated_at: DbDate;
  last_activity_at: DbDate;
}

export interface MembersTable {
  id: Generated<number>;
  source_type: string;
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: DbDate | null;
  created_at: DbDate;
}

export interface AccessTokensTable {
  id: Generated<number>;
  kind: string;
  user_id: number;
  name: string;
  /** JSON array of scope names. */
  scopes: string;
  digest: string;
  expires_at: DbDate | null;
  revoked: DbBool;
  resource_id: number | null;
  last_used_at: DbDate | null;
  created_at: DbDate;
  /** The token this one replaced by rotation (0011); null otherwise. */
  previous_token_id: number | null;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface ErrorTrackingSettingsTable {
  project_id: number;
  active: DbBool;
  integrated: DbBool;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface ErrorTrackingClientKeysTable {
  id: Generated<number>;
  project_id: number;
  active: DbBool;
  public_key: string;
  created_at: DbDate;
}

/** One row per (project, fingerprint): a group of events. */
export interface ErrorTrackingErrorsTable {
  id: Generated<number>;
  project_id: number;
  fingerprint: string;
  name: string;
  description: string;
  actor: string;
  platform: string | null;
  event_count: number;
  first_seen_at: DbDate;
  last_seen_at: DbDate;
}

export interface ErrorTrackingEventsTable {
  id: Generated<number>;
  error_id: number;
  project_id: number;
  event_id: string | null;
  level: string | null;
  environment: string | null;
  occurred_at: DbDate | null;
  received_at: DbDate;
  /** The event as JSON. */
  payload: string;
}

export interface OAuthApplicationsTable {
  id: Generated<number>;
  /** The client id: unique, compared byte-wise. */
  uid: string;
  secret_digest: string;
  name: string;
  /** JSON array of redirect URIs. */
  redirect_uris: string;
  /** JSON array of scope names. */
  scopes: string;
  confidential: DbBool;
  trusted: DbBool;
  ropc_enabled: DbBool;
  owner_id: number | null;
  created_at: DbDate;
  updated_at: DbDate;
}

export interface OAuthCodesTable {
  id: Generated<number>;
  /** Hex SHA-256 of the code: unique. */
  digest: string;
  family_id: string;
  application_id: number;
  user_id: number;
  redirect_uri: string;
  /** JSON array of scope names. */
  scopes: string;
  code_challenge: string | null;
  nonce: string | null;
  created_at: DbDate;
  expires_at: DbDate;
  consumed_at: DbDate | null;
}

export interface OAuthTokensTable {
  id: Generated<number>;
  family_id: string;
  application_id: number | null;
  user_id: number;
  /** Hex SHA-256 of the access token: unique. */
  access_digest: string;
  /** Hex SHA-256 of the refresh token: unique when present. */
  refresh_digest: string | null;
  /** JSON array of scope names. */
  scopes: string;
  expires_in: number | null;
  expires_at: DbDate | null;
  refresh_expires_at: DbDate | null;
  family_created_at: DbDate;
  previous_id: number | null;
  created_at: DbDate;
  revoked_at: DbDate | null;
  rotated_at: DbDate | null;
}

export interface OAuthKeysTable {
  kind: string;
  value: string;
  created_at: DbDate;
}

/** Consent-form tokens already posted (migration 0007). */
export interface OAuthUsedConsentsTable {
  digest: string;
  expires_at: DbDate;
}

/** One row per user and source: `global` (source id 0), `namespace` (a group) or `project`. */
export interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  source_type: string;
  source_id: number;
  level: string;
  notification_email: string | null;
  /** JSON object: event key → boolean, for the keys ever set. */
  events: string;
  created_at: DbDate;
  updated_at: DbDate;
}

/** Group iterations; dates are `YYYY-MM-DD` text. */
export interface IterationsTable {
  id: Generated<number>;
  group_id: number;
  iid: number;
  title: string;
  title_lower: string;
  description: string;
  start_date: string;
  due_date: string;
  created_at: DbDate;
  updated_at: DbDate;
}

/** Durable background jobs (migration 0008); payload is JSON text. */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: string;
  attempts: number;
  max_attempts: number;
  run_after: DbDate;
  lease_owner: string | null;
  lease_expires_at: DbDate | null;
  last_error: string | null;
  progress_done: number | null;
  progress_total: number | null;
  cancel_requested: DbBool;
  /** Held only while the job is unfinished; NULLs do not collide in a unique index. */
  unique_key: string | null;
  created_at: DbDate;
  updated_at: DbDate;
  finished_at: DbDate | null;
}

/** The worker registry (0018): one row per running worker pool, its heartbeat's `alive_until`. */
export interface JobWorkersTable {
  owner: string;
  alive_until: DbDate;
  beat_at: DbDate;
}

/**
 * The Kysely schema of every forgekit table (`forgekit_*`), for queries of your own against the same
 * database.
 */
export interface Database extends ActivityDatabase, ImportsDatabase, StorageMovesDatabase, StatusesDatabase, LabelsDatabase, ReviewsDatabase, ReleasesDatabase, ProtectedRefsDatabase, WebHooksDatabase, RateLimitsDatabase {
  forgekit_users: UsersTable;
  forgekit_emails: EmailsTable;
  forgekit_namespaces: NamespacesTable;
  forgekit_namespace_ancestors: NamespaceAncestorsTable;
  forgekit_projects: ProjectsTable;
  forgekit_members: MembersTable;
  forgekit_access_tokens: AccessTokensTable;
  forgekit_settings: SettingsTable;
  forgekit_notification_settings: NotificationSettingsTable;
  forgekit_iterations: IterationsTable;
  forgekit_error_tracking_settings: ErrorTrackingSettingsTable;
  forgekit_error_tracking_client_keys: ErrorTrackingClientKeysTable;
  forgekit_error_tracking_errors: ErrorTrackingErrorsTable;
  forgekit_error_tracking_events: ErrorTrackingEventsTable;
  forgekit_oauth_applications: OAuthApplicationsTable;
  forgekit_oauth_codes: OAuthCodesTable;
  forgekit_oauth_tokens: OAuthTokensTable;
  forgekit_oauth_keys: OAuthKeysTable;
  forgekit_oauth_used_consents: OAuthUsedConsentsTable;
  forgekit_jobs: JobsTable;
  forgekit_job_workers: JobWorkersTable;
}

/**
 * Every table forgekit owns, dependants before the tables they reference (the order in which rows
 * can be deleted). The migration bookkeeping tables are `forgekit_migrations` and `forgekit_migrations_lock`.
 */
export const FORGEKIT_TABLES = [
  ...WEB_HOOKS_TABLES,
  ...RATE_LIMITS_TABLES,
  ...REVIEWS_TABLES,
  ...STATUSES_TABLES,
  ...LABELS_TABLES,
  ...RELEASES_TABLES,
  ...PROTECTED_REFS_TABLES,
  ...IMPORTS_TABLES,
  "forgekit_repository_storage_moves",
  ...ACTIVITY_TABLES,
  "forgekit_job_workers",
  "forgekit_jobs",
  "forgekit_iterations",
  "forgekit_notification_settings",
  "forgekit_oauth_tokens",
  "forgekit_oauth_codes",
  "forgekit_oauth_applications",
  "forgekit_oauth_keys",
  "forgekit_oauth_used_consents",
  "forgekit_error_tracking_events",
  "forgekit_error_tracking_errors",
  "forgekit_error_tracking_client_keys",
  "forgekit_error_tracking_settings",
  "forgekit_access_tokens",
  "forgekit_members",
  "forgekit_emails",
  "forgekit_projects",
  "forgekit_namespace_ancestors",
  "forgekit_namespaces",
  "forgekit_users",
  "forgekit_settings",
] as const satisfies readonly (keyof Database)[];
