/**
 * Migrations shipped as code: a Kysely MigrationProvider over an ordered list. Later capabilities
 * append entries (`0002_oauth`, …); names sort in the order they run and are never renamed.
 */
import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import { accountsMigration } from "./0001-accounts.js";
import { eventsMigration } from "./0003-events.js";
import { notificationSettingsMigration } from "./0004-notification-settings.js";
import { iterationsMigration } from "./0005-iterations.js";
import { oauthMigration } from "./0002-oauth.js";
import { errorTrackingMigration } from "./0006-error-tracking.js";
import { oauthUsedConsentsMigration } from "./0007-oauth-used-consents.js";

/** The migrations in order: name → factory given the dialect traits. */
const MIGRATIONS: readonly (readonly [string, (traits: DialectTraits) => Migration])[] = [
  ["0001_accounts", accountsMigration],
  ["0002_oauth", oauthMigration],
  ["0003_events", eventsMigration],
  ["0004_notification_settings", notificationSettingsMigration],
  ["0005_iterations", iterationsMigration],
  ["0006_error_tracking", errorTrackingMigration],
  ["0007_oauth_used_consents", oauthUsedConsentsMigration],
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
 * Brings the schema to the latest migration. Kysely's migrator takes a database lock first
 * (PostgreSQL advisory lock, MySQL GET_LOCK), so concurrent callers are safe: one applies, the
 * others then find nothing pending. On SQLite the whole batch runs in one `BEGIN IMMEDIATE`
 * transaction (dialects/sqlite-driver.ts), which is the lock there: another process waits for it
 * (up to `busyTimeoutMs`) and then finds nothing pending; one that waited too long retries
 * (`traits.migrationAttempts`).
 */
export async function migrateToLatest(db: Kysely<unknown>, traits: DialectTraits, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(traits),
    migrationTableName: "forgekit_migrations",
    migrationLockTableName: "forgekit_migrations_lock",
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (error === undefined) return;
    if (attempt >= traits.migrationAttempts) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
}
