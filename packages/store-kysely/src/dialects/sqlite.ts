/** SQLite through better-sqlite3: the embedded default. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { sql, type SqliteDatabase } from "kysely";
import type { DbDate } from "../schema.js";
import { LockWaitingSqliteDialect, type TransactionAwareSqliteDatabase } from "./sqlite-driver.js";
import { retryWhileLocked } from "./sqlite-lock-wait.js";
import { boolFromDb, type AnyDb, type DialectConfig, type DialectTraits } from "./traits.js";

/** A path naming a file on disk: not `:memory:` nor an empty path (a temporary database). */
const isFilePath = (path: string): boolean => path !== "" && path !== ":memory:";

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

/** SQLite: epoch-millisecond integers, 0/1 booleans, `ON CONFLICT DO NOTHING … RETURNING`. */
export const sqliteTraits: DialectTraits = {
  name: "sqlite",
  timestampType: "integer",
  booleanType: "integer",
  foldedType: (length) => sql.raw(`varchar(${length})`),
  idColumn: (column) => column.primaryKey().autoIncrement(),
  tableOptions: (table) => table,
  toDate: (date) => date.getTime(),
  fromDate: (value: DbDate) => new Date(typeof value === "number" ? value : value instanceof Date ? value.getTime() : Number(value)),
  toBool: (value) => (value ? 1 : 0),
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
    // A failed statement rolls back only itself in SQLite; the transaction goes on.
    try {
      return await write(db);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },
  async upsert(db, table, values, key, update) {
    await db
      .insertInto(table)
      .values(values)
      .onConflict((conflict) => conflict.columns([...key]).doUpdateSet(Object.fromEntries(update.map((column) => [column, values[column]]))))
      .execute();
  },
  supportsForUpdate: false,
  migrationAttempts: 5,
};

/** Options of `sqlite()`: lock waits and how the database file is opened. */
export interface SqliteOptions {
  /**
   * Longest wait, in milliseconds, for a lock another connection holds (another process on the same
   * file, e.g. a second server in cluster mode or the CLI) before the write fails as "store
   * unavailable" (503 + Retry-After). The wait is on timers: the event loop keeps running. Default 5000.
   */
  busyTimeoutMs?: number;
  /**
   * Open an existing file only: a missing file fails with SQLITE_CANTOPEN instead of being created
   * (read-only tools must not leave an empty database behind). Default false.
   */
  fileMustExist?: boolean;
  /**
   * How hard a commit makes sure it reached the disk (files in WAL mode). `"normal"` (default, and
   * better-sqlite3's own default for WAL files): the WAL is fsynced at checkpoints, not at every
   * commit; the file is never corrupted and a process crash loses nothing, but the last commits
   * before a power cut or OS crash may be lost. `"full"`: every commit is fsynced before it
   * returns, so it survives a power cut; a commit then costs an fsync (about 2.5 ms instead of
   * 0.03 ms on a test machine), which caps writes at a few hundred per second shared by all
   * processes on the file.
   */
  synchronous?: "normal" | "full";
}

/** The parts of a better-sqlite3 Database the store uses (typed here so the driver stays an optional peer). */
export interface BetterSqliteDatabase extends SqliteDatabase {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  readonly memory: boolean;
  /** Whether an explicit transaction is open (better-sqlite3 has it; a wrapper may leave it out). */
  readonly inTransaction?: boolean | undefined;
}

/** Statements kept per connection; the store issues a few dozen distinct SQL texts. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew, and preparing costs more than running a point lookup (it was a
 * quarter of a `GET /projects/:id` in a profile). Keep prepared statements by SQL text; a statement
 * that is mid-iteration (`busy`) is never handed out twice.
 */
function withStatementCache(database: BetterSqliteDatabase, closeDatabase: boolean): TransactionAwareSqliteDatabase {
  type Prepared = ReturnType<SqliteDatabase["prepare"]> & { busy?: boolean };
  const cache = new Map<string, Prepared>();
  return {
    prepare(query) {
      const cached = cache.get(query);
      if (cached !== undefined && cached.busy !== true) return cached;
      const statement = database.prepare(query) as Prepared;
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
      cache.set(query, statement);
      return statement;
    },
    get inTransaction() {
      return database.inTransaction;
    },
    close() {
      cache.clear();
      if (closeDatabase) database.close();
    },
  };
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Sets the handle up for sharing the file: SQLite's blocking busy handler off (lock waits happen on
 * timers in the driver), WAL journaling on files (readers never wait for the writer, and a commit
 * is one append), foreign keys on. Switching a new file to WAL needs a moment of exclusive access,
 * so it waits like any statement when another process is opening the same file.
 */
async function configure(database: BetterSqliteDatabase, busyTimeoutMs: number, options: SqliteOptions): Promise<void> {
  database.pragma("busy_timeout = 0");
  if (!database.memory) await retryWhileLocked(() => database.pragma("journal_mode = WAL"), busyTimeoutMs);
  database.pragma(`synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
  database.pragma("foreign_keys = ON");
}

/**
 * SQLite at `pathOrDatabase`: a file path (created if missing), `:memory:`, or an open
 * better-sqlite3 Database (the caller keeps ownership: `store.close()` does not close it; the store
 * sets its `busy_timeout` to 0 on first use). Turns on WAL journaling (files), foreign keys and
 * `synchronous = NORMAL` (or FULL, see {@link SqliteOptions.synchronous}).
 * Several processes may use one file at once: write transactions take the write lock up front
 * (`BEGIN IMMEDIATE`) and a lock another process holds is waited for on timers, up to
 * `busyTimeoutMs`, without blocking the event loop. better-sqlite3 is loaded on first use, so
 * hosts on another database need not install it.
 */
export function sqlite(pathOrDatabase: string | BetterSqliteDatabase, options: SqliteOptions = {}): DialectConfig {
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS));
  const open = async (): Promise<TransactionAwareSqliteDatabase> => {
    if (typeof pathOrDatabase !== "string") {
      await configure(pathOrDatabase, busyTimeoutMs, options);
      return withStatementCache(pathOrDatabase, false);
    }
    const { default: Database } = await import("better-sqlite3");
    // A new database file may live in folders that do not exist yet (`./data/forgekit.db` in a fresh
    // checkout): create them, as SQLite creates the file. Never for `fileMustExist`.
    if (options.fileMustExist !== true && isFilePath(pathOrDatabase)) mkdirSync(dirname(pathOrDatabase), { recursive: true });
    const database = new Database(pathOrDatabase, { fileMustExist: options.fileMustExist === true });
    try {
      await configure(database, busyTimeoutMs, options);
    } catch (error) {
      database.close();
      throw error;
    }
    return withStatementCache(database, true);
  };
  return { dialect: new LockWaitingSqliteDialect({ database: open, busyTimeoutMs }), traits: sqliteTraits };
}
