/**
 * Everything that differs between SQL dialects, gathered in one traits object per dialect (DESIGN
 * §2): column types, value conversions, conflict handling and locking. Repositories and migrations
 * speak only through these.
 */
import type { ColumnDataType, ColumnDefinitionBuilder, CreateTableBuilder, Dialect, Expression, Kysely } from "kysely";
import type { Logger } from "@forgekit/core";
import type { DbBool, DbDate } from "../schema.js";

/** A column type: a name Kysely knows, or raw SQL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors Kysely's own DataTypeExpression
export type DataTypeExpression = ColumnDataType | Expression<any>;

/** The SQL databases store-kysely supports. */
export type DialectName = "sqlite" | "postgres" | "mysql";

/** A Kysely handle over any schema (traits serve every table, present and future). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- traits are schema-agnostic by design
export type AnyDb = Kysely<any>;

/**
 * What differs between the SQL dialects: column types, DDL options, error classification and how
 * migrations and transactions run.
 */
export interface DialectTraits {
  readonly name: DialectName;
  /** Column type of a timestamp (UTC, millisecond precision). */
  readonly timestampType: DataTypeExpression;
  /** Column type of a boolean. */
  readonly booleanType: DataTypeExpression;
  /** Column type of a case-folded key: compared, ordered and uniquely indexed byte-wise (code-point order). */
  foldedType(length: number): DataTypeExpression;
  /** Makes `column` the auto-incrementing integer primary key. */
  idColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Table options appended to every CREATE TABLE (engine, charset, collation). */
  tableOptions<T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C>;
  toDate(date: Date): DbDate;
  fromDate(value: DbDate): Date;
  toBool(value: boolean): DbBool;
  fromBool(value: DbBool): boolean;
  /** Inserts one row and returns its new id. */
  insert(db: AnyDb, table: string, values: Record<string, unknown>): Promise<number>;
  /** Inserts one row; its new id, or null when a unique key already holds the values (nothing written). */
  insertOrIgnore(db: AnyDb, table: string, values: Record<string, unknown>): Promise<number | null>;
  /**
   * Runs one write; a unique-key violation yields null and leaves the surrounding transaction usable
   * (PostgreSQL aborts a transaction on any error, so it runs the write under a savepoint there).
   */
  guardUnique<T>(db: AnyDb, write: (db: AnyDb) => Promise<T>): Promise<T | null>;
  /** Inserts the row, or updates `update` columns of the row holding the same `key` columns. */
  upsert(db: AnyDb, table: string, values: Record<string, unknown>, key: readonly string[], update: readonly string[]): Promise<void>;
  /**
   * Isolation level of every transaction the store opens; absent: the database's own (SQLite
   * serialises writers). PostgreSQL and MySQL run READ COMMITTED: each statement reads the latest
   * committed rows, so a read after taking a row lock sees what the lock's previous holder wrote.
   * MySQL's default, REPEATABLE READ, keeps the snapshot of the transaction's first read: a
   * lock-then-check-then-insert after any earlier read then inserted duplicates (forgekit issue 8),
   * and its gap locks on searches deadlock racing first inserts.
   */
  readonly transactionIsolation?: "read committed";
  /**
   * Whether `error` means the database aborted the transaction for a conflict with another one
   * (deadlock, serialization failure) and running it again may succeed; absent: never.
   */
  isTransientConflict?(error: unknown): boolean;
  /** Whether `SELECT … FOR UPDATE` exists (SQLite serialises writers instead). */
  readonly supportsForUpdate: boolean;
  /**
   * How often `migrate` runs the migrator before giving up. Kysely locks migrations on PostgreSQL and
   * MySQL (1 attempt suffices); on SQLite the migrating transaction is the lock, and a migrator that
   * gave up waiting for it (`busyTimeoutMs`) retries and then finds nothing pending.
   */
  readonly migrationAttempts: number;
}

/** What the dialect helpers return and `kyselyStore` takes. */
export interface DialectConfig {
  /** The Kysely dialect (driver and connection pool). */
  readonly dialect: Dialect;
  readonly traits: DialectTraits;
  /** PostgreSQL / MySQL schema holding forgekit's tables; default: the connection's current one. */
  readonly schema?: string | undefined;
  /**
   * Hands the dialect the host's logger, for what happens outside any statement (a pooled
   * connection the server drops); `kyselyStore` exposes it as `Store.useLogger`.
   */
  readonly useLogger?: ((logger: Logger) => void) | undefined;
  /**
   * Runs `fn` free of the dialect's statement and lock limits; `kyselyStore` runs `migrate` in it (a
   * migrator waits for another's lock, and a migration may outlast a statement limit).
   */
  readonly withoutLimits?: (<T>(fn: () => Promise<T>) => Promise<T>) | undefined;
}

/** Coerces a driver's boolean representation. */
export function boolFromDb(value: DbBool): boolean {
  return value === true || value === 1 || (value as unknown) === "1" || (value as unknown) === 1n;
}
