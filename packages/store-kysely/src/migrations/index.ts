/**
 * Migrations shipped as code: a Kysely MigrationProvider over an ordered list. Later capabilities
 * append entries (`0002_oauth`, …); names sort in the order they run and are never renamed.
 */
import type { MigrateOptions, MigrationProgress } from "@forgekit/core";
import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import { databaseProblemError, explainDatabaseError } from "../problems/index.js";
import { accountsMigration } from "./0001-accounts.js";
import { eventsMigration } from "./0003-events.js";
import { notificationSettingsMigration } from "./0004-notification-settings.js";
import { iterationsMigration } from "./0005-iterations.js";
import { oauthMigration } from "./0002-oauth.js";
import { errorTrackingMigration } from "./0006-error-tracking.js";
import { oauthUsedConsentsMigration } from "./0007-oauth-used-consents.js";
import { jobsMigration } from "./0008-jobs.js";
import { storageMovesMigration } from "./0009-storage-moves.js";
import { importsMigration } from "./0010-imports.js";
import { accessTokenFamilyMigration } from "./0011-access-token-family.js";
import { issueDetailsMigration } from "./0012-issue-details.js";
import { mergeRequestMergesMigration } from "./0013-merge-request-merges.js";
import { usersExternalIdMigration } from "./0014-users-external-id.js";
import { groupMilestonesMigration } from "./0015-group-milestones.js";
import { eventCountsMigration } from "./0016-event-counts.js";
import { oauthTokenRowidMigration } from "./0017-oauth-token-rowid.js";
import { jobWorkersMigration } from "./0018-job-workers.js";
import { commitStatusesMigration } from "./0019-commit-statuses.js";
import { labelsMigration } from "./0020-labels.js";
import { projectFeaturesMigration } from "./0021-project-features.js";
import { mergeRequestReviewsMigration } from "./0022-merge-request-reviews.js";
import { releasesMigration } from "./0023-releases.js";
import { uploadsMigration } from "./0024-uploads.js";
import { milestoneDatesMigration } from "./0025-milestone-dates.js";
import { importedFromMigration } from "./0032-imported-from.js";
import { issueDueDatesMigration } from "./0033-issue-due-dates.js";
import { projectMergeChecksMigration } from "./0034-project-merge-checks.js";
import { groupMilestoneDatesMigration } from "./0036-group-milestone-dates.js";
import { issueDiscussionLocksMigration } from "./0037-issue-discussion-locks.js";
import { mergeRequestClosingIssuesMigration } from "./0038-merge-request-closing-issues.js";
import { userLastActivityMigration } from "./0039-user-last-activity.js";
import { mergeRequestMilestonesMigration } from "./0040-merge-request-milestones.js";
import { mergeRequestLockAndSquashMigration } from "./0041-merge-request-lock-and-squash.js";
import { webHookSendingMigration } from "./0042-web-hook-sending.js";
import { jobsDueKindMigration } from "./0043-jobs-due-kind.js";
import { protectedRefsMigration } from "./0026-protected-refs.js";
import { noteDiscussionsMigration } from "./0027-note-discussions.js";
import { webHooksMigration } from "./0028-web-hooks.js";
import { webHookDeliveriesMigration } from "./0029-web-hook-deliveries.js";
import { rateLimitsMigration } from "./0030-rate-limits.js";

/** The migrations in order: name → factory given the dialect traits. */
const MIGRATIONS: readonly (readonly [string, (traits: DialectTraits) => Migration])[] = [
  ["0001_accounts", accountsMigration],
  ["0002_oauth", oauthMigration],
  ["0003_events", eventsMigration],
  ["0004_notification_settings", notificationSettingsMigration],
  ["0005_iterations", iterationsMigration],
  ["0006_error_tracking", errorTrackingMigration],
  ["0007_oauth_used_consents", oauthUsedConsentsMigration],
  ["0008_jobs", jobsMigration],
  ["0009_storage_moves", storageMovesMigration],
  ["0010_imports", importsMigration],
  ["0011_access_token_family", accessTokenFamilyMigration],
  ["0012_issue_details", issueDetailsMigration],
  ["0013_merge_request_merges", mergeRequestMergesMigration],
  ["0014_users_external_id", usersExternalIdMigration],
  ["0015_group_milestones", groupMilestonesMigration],
  ["0016_event_counts", eventCountsMigration],
  ["0017_oauth_token_rowid", oauthTokenRowidMigration],
  ["0018_job_workers", jobWorkersMigration],
  ["0019_commit_statuses", commitStatusesMigration],
  ["0020_labels", labelsMigration],
  ["0021_project_features", projectFeaturesMigration],
  ["0022_merge_request_reviews", mergeRequestReviewsMigration],
  ["0023_releases", releasesMigration],
  ["0024_uploads", uploadsMigration],
  ["0025_milestone_dates", milestoneDatesMigration],
  ["0026_protected_refs", protectedRefsMigration],
  ["0027_note_discussions", noteDiscussionsMigration],
  ["0028_web_hooks", webHooksMigration],
  ["0029_web_hook_deliveries", webHookDeliveriesMigration],
  ["0030_rate_limits", rateLimitsMigration],
  ["0032_imported_from", importedFromMigration],
  ["0033_issue_due_dates", issueDueDatesMigration],
  ["0034_project_merge_checks", projectMergeChecksMigration],
  ["0036_group_milestone_dates", groupMilestoneDatesMigration],
  ["0037_issue_discussion_locks", issueDiscussionLocksMigration],
  ["0038_merge_request_closing_issues", mergeRequestClosingIssuesMigration],
  ["0039_user_last_activity", userLastActivityMigration],
  ["0040_merge_request_milestones", mergeRequestMilestonesMigration],
  ["0041_merge_request_lock_and_squash", mergeRequestLockAndSquashMigration],
  ["0042_web_hook_sending", webHookSendingMigration],
  ["0043_jobs_due_kind", jobsDueKindMigration],
];

/** The provider of every forgekit migration for one dialect; `wrap` may decorate each migration. */
export function migrationProvider(traits: DialectTraits, wrap: (name: string, migration: Migration) => Migration = (_name, migration) => migration): MigrationProvider {
  return {
    getMigrations: () => Promise.resolve(Object.fromEntries(MIGRATIONS.map(([name, make]) => [name, wrap(name, make(traits))]))),
  };
}

/**
 * Progress reporting of one migrate call: `wrap` times each migration's `up` and tells `onProgress`
 * (a throwing callback is ignored); `expect(total)` sets how many are pending before a run, and
 * `restart()` forgets a failed attempt's count before a retry.
 */
export function migrationReporter(onProgress: ((progress: MigrationProgress) => void) | undefined, now: () => number = () => performance.now()) {
  const began = now();
  let total = 0;
  let index = 0;
  const tell = (progress: MigrationProgress) => {
    try {
      onProgress?.(progress);
    } catch {
      // The callback is for display only; the migration goes on.
    }
  };
  return {
    expect(pending: number): void {
      total = pending;
    },
    restart(): void {
      index = 0;
    },
    wrap(name: string, migration: Migration): Migration {
      if (onProgress === undefined) return migration;
      return {
        ...migration,
        up: async (db) => {
          index += 1;
          // Another migrator may have applied some since the count: never report index > total.
          total = Math.max(total, index);
          const position = { name, index, total };
          const started = now();
          tell({ ...position, phase: "started", elapsedMs: 0, totalElapsedMs: started - began });
          await migration.up(db);
          const finished = now();
          tell({ ...position, phase: "finished", elapsedMs: finished - started, totalElapsedMs: finished - began });
        },
      };
    },
  };
}

/** Names of every shipped migration, in order. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

/**
 * Brings the schema to the latest migration and resolves the names it applied. Kysely's migrator takes a database lock first
 * (PostgreSQL advisory lock, MySQL GET_LOCK), so concurrent callers are safe: one applies, the
 * others then find nothing pending. On SQLite the whole batch runs in one `BEGIN IMMEDIATE`
 * transaction (dialects/sqlite-driver.ts), which is the lock there: another process waits for it
 * (up to `busyTimeoutMs`) and then finds nothing pending; one that waited too long retries
 * (`traits.migrationAttempts`).
 *
 * A failure the problem rules recognise (server down, unknown host, missing database, refused
 * login, a file that is not a database, …) is thrown as a `DatabaseProblemError` whose message says
 * the cause and what to do, with the driver's error as its `cause` (so core's store-unavailable
 * marker inside still reads as unavailable): start-up should say why it stopped, not just
 * "internal". Such failures are final at once, since retrying would not help.
 */
export async function migrateToLatest(db: Kysely<unknown>, traits: DialectTraits, schema: string | undefined, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const reporter = migrationReporter(options.onProgress);
  const migrator = new Migrator({
    db,
    provider: migrationProvider(traits, (name, migration) => reporter.wrap(name, migration)),
    migrationTableName: "forgekit_migrations",
    migrationLockTableName: "forgekit_migrations_lock",
    // 0009_storage_moves was added after 0010_imports had run on development databases; a pending
    // migration with an earlier name runs (each is independent of the later ones) instead of being
    // refused as "corrupted migrations".
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  for (let attempt = 1; ; attempt++) {
    if (options.onProgress !== undefined) reporter.expect(await pendingCount(migrator));
    reporter.restart();
    const { error, results } = await migrator.migrateToLatest();
    // Names of what this call applied (a concurrent migrator that did the work leaves it empty).
    if (error === undefined) return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
    // A missing table here is a migration's own doing (or a lost SQLite race), not a database that
    // was never migrated; a lock held by another migrator ("unavailable") may clear on a retry.
    const problem = explainDatabaseError(error, { dialect: traits.name });
    const explained = problem !== undefined && problem.kind !== "not_migrated" ? problem : undefined;
    if (attempt >= traits.migrationAttempts || (explained !== undefined && explained.kind !== "unavailable")) {
      if (explained !== undefined) throw databaseProblemError(explained, error);
      throw error instanceof Error ? error : new Error("migration failed", { cause: error });
    }
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
}

/** How many shipped migrations the database has not applied yet (0 when unknown, e.g. unreadable). */
async function pendingCount(migrator: Migrator): Promise<number> {
  try {
    return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
  } catch {
    return 0;
  }
}
