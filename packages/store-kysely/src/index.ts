/**
 * @forgekit/store-kysely: forgekit's storage ports on SQL through Kysely — SQLite (better-sqlite3),
 * PostgreSQL (pg) and MySQL / MariaDB (mysql2), with migrations shipped as code.
 */
export { kyselyStore } from "./store.js";
export { fromUrl, type FromUrlOptions } from "./from-url.js";
export { explainDatabaseError, maskDatabaseSecrets, problemOf, redactDatabaseUrl, type DatabaseProblem, type DatabaseProblemError, type DatabaseProblemKind, type ExplainOptions } from "./problems/index.js";
export { sqlite, sqliteTraits, type BetterSqliteDatabase, type SqliteOptions } from "./dialects/sqlite.js";
export { postgres, postgresTraits, type PostgresOptions } from "./dialects/postgres.js";
export { mysql, mysqlTraits, type MysqlOptions } from "./dialects/mysql.js";
export type { DialectConfig, DialectName, DialectTraits } from "./dialects/traits.js";
export { MIGRATION_NAMES, migrationProvider } from "./migrations/index.js";
export { FORGEKIT_TABLES, type Database } from "./schema.js";
export { kyselyRateLimiter, type KyselyRateLimiter, type KyselyRateLimiterOptions } from "./rate-limiter.js";
