/** SQLite through better-sqlite3: the embedded default. */
import { SqliteDialect, sql, type SqliteDatabase } from "kysely";
import type { DbDate } from "../schema.js";
import { boolFromDb, type AnyDb, type DialectConfig, type DialectTraits } from "./traits.js";

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

export interface SqliteOptions {
  /** Milliseconds a writer waits for another connection's lock (default 5000). */
  busyTimeoutMs?: number;
}

/** The parts of a better-sqlite3 Database the store uses (typed here so the driver stays an optional peer). */
export interface BetterSqliteDatabase extends SqliteDatabase {
  pragma(source: string, options?: { simple?: boolean }): unknown;
  readonly memory: boolean;
}

/** Statements kept per connection; the store issues a few dozen distinct SQL texts. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew, and preparing costs more than running a point lookup (it was a
 * quarter of a `GET /projects/:id` in a profile). Keep prepared statements by SQL text; a statement
 * that is mid-iteration (`busy`) is never handed out twice.
 */
function withStatementCache(database: SqliteDatabase, closeDatabase: boolean): SqliteDatabase {
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
    close() {
      cache.clear();
      if (closeDatabase) database.close();
    },
  };
}

function configure(database: BetterSqliteDatabase, options: SqliteOptions): void {
  database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
  if (!database.memory) database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
}

/**
 * SQLite at `pathOrDatabase`: a file path (created if missing), `:memory:`, or an open
 * better-sqlite3 Database (the caller keeps ownership: `store.close()` does not close it).
 * Turns on WAL journaling (files), foreign keys and a busy timeout. better-sqlite3 is loaded on
 * first use, so hosts on another database need not install it.
 */
export function sqlite(pathOrDatabase: string | BetterSqliteDatabase, options: SqliteOptions = {}): DialectConfig {
  if (typeof pathOrDatabase !== "string") {
    const database = pathOrDatabase;
    configure(database, options);
    return { dialect: new SqliteDialect({ database: withStatementCache(database, false) }), traits: sqliteTraits };
  }
  const open = async (): Promise<SqliteDatabase> => {
    const { default: Database } = await import("better-sqlite3");
    const database = new Database(pathOrDatabase);
    configure(database, options);
    return withStatementCache(database, true);
  };
  return { dialect: new SqliteDialect({ database: open }), traits: sqliteTraits };
}
