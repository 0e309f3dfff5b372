/** MySQL and MariaDB through mysql2. */
import { sql, type MysqlPool } from "kysely";
import { mysqlConnection } from "../resilience/mysql-connection.js";
import type { DatabaseLimits } from "../resilience/timeouts.js";
import type { DbDate } from "../schema.js";
import { boolFromDb, type AnyDb, type DialectConfig, type DialectTraits } from "./traits.js";

function isUniqueViolation(error: unknown): boolean {
  const failure = error as { errno?: unknown; code?: unknown } | null;
  return failure?.errno === 1062 || failure?.code === "ER_DUP_ENTRY";
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in UTC: independent of the connection's time zone setting. */
function utcText(date: Date): string {
  return date.toISOString().replace("T", " ").replace("Z", "");
}

/** MySQL / MariaDB: `datetime(3)` in UTC, `tinyint(1)` booleans, utf8mb4_bin tables, duplicate-key errors caught. */
export const mysqlTraits: DialectTraits = {
  name: "mysql",
  timestampType: sql.raw("datetime(3)"),
  booleanType: "boolean",
  foldedType: (length) => sql.raw(`varchar(${length})`),
  idColumn: (column) => column.primaryKey().autoIncrement(),
  // Binary collation: folded keys compare and sort by code point, exactly like the other dialects.
  tableOptions: (table) => table.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`),
  toDate: utcText,
  fromDate: (value: DbDate) =>
    value instanceof Date ? new Date(value.getTime()) : typeof value === "number" ? new Date(value) : new Date(`${value.replace(" ", "T")}Z`),
  toBool: (value) => value,
  fromBool: boolFromDb,
  async insert(db: AnyDb, table, values) {
    const result = await db.insertInto(table).values(values).executeTakeFirstOrThrow();
    return Number(result.insertId);
  },
  async insertOrIgnore(db: AnyDb, table, values) {
    // A failed statement does not abort a MySQL transaction, so the duplicate-key error is simply caught
    // (INSERT IGNORE would also swallow truncation and foreign-key errors).
    try {
      const result = await db.insertInto(table).values(values).executeTakeFirstOrThrow();
      return Number(result.insertId);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },
  async guardUnique(db, write) {
    try {
      return await write(db);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },
  async upsert(db, table, values, _key, update) {
    await db
      .insertInto(table)
      .values(values)
      .onDuplicateKeyUpdate(Object.fromEntries(update.map((column) => [column, values[column]])))
      .execute();
  },
  transactionIsolation: "read committed",
  // ER_LOCK_DEADLOCK: InnoDB rolled the whole transaction back ("try restarting transaction").
  isTransientConflict: (error) => (error as { errno?: unknown } | null)?.errno === 1213,
  supportsForUpdate: true,
  migrationAttempts: 1,
};

/**
 * Options of `mysql()`. The limits (`connectTimeoutMs` 5000, `statementTimeoutMs` 15000,
 * `lockTimeoutMs` 5000; resilience/timeouts.ts) apply to the pool forgekit creates from a URL;
 * `retryAfterSeconds` (1) is the 503's `Retry-After`.
 */
export interface MysqlOptions extends DatabaseLimits {
  /** Database (schema) holding forgekit's tables; default: the connection's database. */
  schema?: string;
  /** Pool size when forgekit creates the pool from a URL (default 10). */
  connectionLimit?: number;
}

/** A caller's pool must hand timestamps back as strings or as UTC, or they would shift by the local offset. */
function checkPool(pool: MysqlPool): void {
  const config = (pool as { config?: { connectionConfig?: { dateStrings?: unknown; timezone?: unknown } } }).config?.connectionConfig;
  if (config === undefined) return;
  const utc = config.timezone === "Z" || config.timezone === "+00:00";
  if (config.dateStrings !== true && !utc) {
    throw new Error('mysql(): create the pool with `dateStrings: true` or `timezone: "Z"` so timestamps read back in UTC');
  }
}

/**
 * MySQL or MariaDB at `urlOrPool`: a `mysql://` / `mariadb://` URL (forgekit creates the pool on
 * first use, with the limits of {@link MysqlOptions}, and closes it), or a mysql2 Pool (callback API,
 * `createPool` from "mysql2") the caller owns (its limits are the caller's). Either way an
 * unreachable or timed-out database is a 503, a connection the server drops is logged and replaced,
 * and a read whose connection turns out dead runs again on another one (resilience/resilient-dialect.ts).
 * mysql2 is loaded on first use, so hosts on another database need not install it.
 */
export function mysql(urlOrPool: string | MysqlPool, options: MysqlOptions = {}): DialectConfig {
  const { dialect, useLogger } = mysqlConnection(urlOrPool, { ...options, connectionLimit: options.connectionLimit ?? 10, checkPool });
  return { dialect, traits: mysqlTraits, schema: options.schema, useLogger, withoutLimits: (fn) => dialect.withoutLimits(fn) };
}
