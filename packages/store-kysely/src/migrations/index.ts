/**
 * Migrations shipped as code: a Kysely MigrationProvider over an ordered list. Later capabilities
 * append entries (`0002_oauth`, …); names sort in the order they run and are never renamed.
 */
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
];

/** The provider of every forgekit migration for one dialect. */
export function migrationProvider(traits: DialectTraits): MigrationProvider {
  return {
    getMigrations: () => Promise.resolve(Object.fromEntries(MIGRATIONS.map(([name, make]) => [name, make(traits)]))),
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
export async function migrateToLatest(db: Kysely<unknown>, traits: DialectTraits, schema: string | undefined): Promise<{ applied: string[] }> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(traits),
    migrationTableName: "forgekit_migrations",
    migrationLockTableName: "forgekit_migrations_lock",
    // 0009_storage_moves was added after 0010_imports had run on development databases; a pending
    // migration with an earlier name runs (each is independent of the later ones) instead of being
    // refused as "corrupted migrations".
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  for (let attempt = 1; ; attempt++) {
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
