/**
 * A Kysely dialect for SQLite that shares the database file with other processes. It replaces
 * Kysely's SqliteDriver (0.28), which begins transactions with a deferred `BEGIN` and leaves lock
 * waits to SQLite's blocking busy handler, and keeps everything else of SqliteDialect (compiler,
 * introspector). Like Kysely's driver it serialises its one connection with a mutex; on top:
 *
 * - write transactions start with `BEGIN IMMEDIATE`, taking the write lock up front: a deferred
 *   transaction that reads and then writes can fail mid-way with SQLITE_BUSY (two such readers
 *   turned writers deadlock, and SQLite fails one at once);
 * - a lock conflict on `BEGIN`, `COMMIT` or a statement outside a transaction is waited out on
 *   timers (sqlite-lock-wait.ts), so the event loop keeps serving while another process writes;
 *   a statement inside a transaction is never re-run (it may have partly applied);
 * - while a caller waits outside a transaction it lends the connection to the callers queued
 *   behind it, so reads (which WAL lets run beside another process's writer) are not held up, and
 *   only one waiter per process asks for the lock at a time;
 * - migrations run in one transaction (SQLite has transactional DDL), which makes that transaction
 *   the migration lock between processes and leaves no half-built schema behind a crash.
 *
 * The connection itself (lock waits, lending) is in sqlite-connection.ts.
 */
import {
  CompiledQuery,
  IdentifierNode,
  RawNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type TransactionSettings,
} from "kysely";
import { FifoLock, LockWaitingConnection, type TransactionAwareSqliteDatabase } from "./sqlite-connection.js";

export type { TransactionAwareSqliteDatabase } from "./sqlite-connection.js";

/** Configuration of {@link LockWaitingSqliteDialect}. */
export interface LockWaitingSqliteConfig {
  /** The handle, or a function opening it on first use (it may itself wait for locks). */
  readonly database: TransactionAwareSqliteDatabase | (() => Promise<TransactionAwareSqliteDatabase>);
  /** Longest total wait, in milliseconds, for another connection's lock before a statement fails. */
  readonly busyTimeoutMs: number;
}

const raw = (text: string) => CompiledQuery.raw(text);

/**
 * Longest stretch, in milliseconds, of database calls handed from one caller to the next before
 * the event loop gets a turn. better-sqlite3 is synchronous and the hand-over is a promise, so
 * without a break a queue of writes (each COMMIT an fsync) would run as one long stall.
 */
const MAX_STRETCH_MS = 10;

function savepointCommand(command: string, name: string, compileQuery: QueryCompiler["compileQuery"]): CompiledQuery {
  const node = RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
  return compileQuery(node, { queryId: `forgekit-savepoint-${name}` });
}

/** The driver: Kysely's SqliteDriver contract with lock waits and `BEGIN IMMEDIATE`. */
export class LockWaitingSqliteDriver implements Driver {
  readonly #config: LockWaitingSqliteConfig;
  /** Kysely hands the one connection to one caller at a time. */
  readonly #mutex = new FifoLock();
  /** When the current stretch of back-to-back database calls began (undefined: none running). */
  #stretchStarted: number | undefined;
  #db: TransactionAwareSqliteDatabase | undefined;
  #connection: LockWaitingConnection | undefined;

  constructor(config: LockWaitingSqliteConfig) {
    this.#config = config;
  }

  async init(): Promise<void> {
    const { database } = this.#config;
    this.#db = typeof database === "function" ? await database() : database;
    this.#connection = new LockWaitingConnection(this.#db, this.#config.busyTimeoutMs, this.#mutex);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    if (this.#stretchStarted === undefined) {
      this.#stretchStarted = performance.now();
      // Runs once the event loop is back: the stretch of promise-chained calls is over.
      setImmediate(() => (this.#stretchStarted = undefined));
    }
    if (this.#connection === undefined) throw new Error("SQLite driver used before init() or after destroy()");
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // A read-only transaction never needs the write lock; in WAL it reads a snapshot beside writers.
    const begin = settings.accessMode === "read only" ? "begin" : "begin immediate";
    await this.#run(connection, raw(begin), true);
    (connection as LockWaitingConnection).began = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A busy COMMIT leaves the transaction open and may be retried (sqlite3_step, SQLITE_BUSY).
    await this.#run(connection, raw("commit"), true);
    (connection as LockWaitingConnection).began = false;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite may already have rolled back (some errors do); a second ROLLBACK would fail and hide
    // the error that got us here.
    const lockWaiting = connection as LockWaitingConnection;
    if (!lockWaiting.inTransaction) return;
    lockWaiting.began = false;
    await connection.executeQuery(raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler["compileQuery"]): Promise<void> {
    await connection.executeQuery(savepointCommand("savepoint", name, compileQuery));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler["compileQuery"]): Promise<void> {
    await connection.executeQuery(savepointCommand("rollback to", name, compileQuery));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: QueryCompiler["compileQuery"]): Promise<void> {
    await connection.executeQuery(savepointCommand("release", name, compileQuery));
  }

  async releaseConnection(): Promise<void> {
    const stretch = this.#stretchStarted === undefined ? 0 : performance.now() - this.#stretchStarted;
    if (this.#mutex.contended && stretch > MAX_STRETCH_MS) setImmediate(() => this.#mutex.unlock());
    else this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#db?.close();
    this.#db = undefined;
    this.#connection = undefined;
  }

  #run(connection: DatabaseConnection, compiled: CompiledQuery, retryable: boolean): Promise<unknown> {
    const lockWaiting = connection as LockWaitingConnection;
    return lockWaiting.run(() => this.#db?.prepare(compiled.sql).run(compiled.parameters), retryable);
  }
}

/**
 * SQLite does have transactional DDL (Kysely's adapter says no to stay safe with PRAGMAs, which the
 * forgekit migrations do not use): saying yes makes Kysely's Migrator run the whole batch in one
 * transaction, which `BEGIN IMMEDIATE` turns into a lock between migrating processes.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SqliteDialect with {@link LockWaitingSqliteDriver} and transactional migrations. */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #config: LockWaitingSqliteConfig;

  constructor(config: LockWaitingSqliteConfig) {
    super({ database: config.database });
    this.#config = config;
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
