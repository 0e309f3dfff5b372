/** PostgreSQL through pg. */
import { sql, type PostgresPool } from "kysely";
import { postgresConnection, type PostgresLimits } from "../resilience/postgres-connection.js";
import type { DbDate } from "../schema.js";
import { boolFromDb, type AnyDb, type DialectConfig, type DialectTraits } from "./traits.js";

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}

let savepoints = 0;

/** PostgreSQL: `timestamptz`, `boolean`, identity ids, folded keys in the "C" collation. */
export const postgresTraits: DialectTraits = {
  name: "postgres",
  timestampType: "timestamptz",
  booleanType: "boolean",
  foldedType: (length) => sql.raw(`varchar(${length}) collate "C"`),
  idColumn: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  tableOptions: (table) => table,
  toDate: (date) => new Date(date.getTime()),
  fromDate: (value: DbDate) => new Date(value instanceof Date ? value.getTime() : value),
  toBool: (value) => value,
  fromBool: boolFromDb,
  async insert(db: AnyDb, table, values) {
    const row = await db.insertInto(table).values(values).returning("id").executeTakeFirstOrThrow();
    return Number(row.id);
  },
  async insertOrIgnore(db: AnyDb, table, values) {
    const row = await db.insertInto(table).values(values).onConflict((conflict) => conflict.doNothing()).returning("id").executeTakeFirst();
    return row === undefined ? null : Number(row.id);
  },
  async guardUnique(db, write) {
    if (!db.isTransaction) {
      try {
        return await write(db);
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    }
    // Any error aborts a PostgreSQL transaction; a savepoint confines the violation to this write.
    savepoints += 1;
    const name = sql.id(`forgekit_guard_${savepoints}`);
    await sql`savepoint ${name}`.execute(db);
    try {
      const result = await write(db);
      await sql`release savepoint ${name}`.execute(db);
      return result;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql`rollback to savepoint ${name}`.execute(db);
      await sql`release savepoint ${name}`.execute(db);
      return null;
    }
  },
  async upsert(db, table, values, key, update) {
    await db
      .insertInto(table)
      .values(values)
      .onConflict((conflict) => conflict.columns([...key]).doUpdateSet(Object.fromEntries(update.map((column) => [column, values[column]]))))
      .execute();
  },
  transactionIsolation: "read committed",
  // deadlock_detected, serialization_failure: PostgreSQL's advice is to run the transaction again.
  isTransientConflict: (error) => ["40P01", "40001"].includes(String((error as { code?: unknown } | null)?.code)),
  supportsForUpdate: true,
  migrationAttempts: 1,
};

/**
 * Options of `postgres()`. The limits (`connectTimeoutMs` 5000, `statementTimeoutMs` 15000,
 * `lockTimeoutMs` 5000, `idleInTransactionTimeoutMs` 60000; resilience/timeouts.ts) apply to the
 * pool forgekit creates from a URL; `retryAfterSeconds` (1) is the 503's `Retry-After`.
 */
export interface PostgresOptions extends PostgresLimits {
  /** Schema holding forgekit's tables (created by `migrate` if missing); default: the search path's first. */
  schema?: string;
  /** Pool size when forgekit creates the pool from a URL (default 10). */
  max?: number;
}

/**
 * PostgreSQL at `urlOrPool`: a `postgres://` / `postgresql://` URL (forgekit creates the pool on
 * first use, with the limits of {@link PostgresOptions}, and closes it), or a pg Pool the caller owns
 * (`store.close()` leaves it open; its limits are the caller's, and forgekit adds an 'error'
 * listener only if the pool has none). Either way an unreachable or timed-out database is a 503, a
 * pooled connection the server drops is logged and replaced, and a read whose connection turns out
 * dead runs again on another one (resilience/resilient-dialect.ts). pg is loaded on first use, so
 * hosts on another database need not install it.
 */
export function postgres(urlOrPool: string | PostgresPool, options: PostgresOptions = {}): DialectConfig {
  const { dialect, useLogger } = postgresConnection(urlOrPool, { ...options, max: options.max ?? 10 });
  return { dialect, traits: postgresTraits, schema: options.schema, useLogger, withoutLimits: (fn) => dialect.withoutLimits(fn) };
}
