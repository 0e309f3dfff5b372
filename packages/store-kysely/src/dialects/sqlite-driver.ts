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
 */
import {
  CompiledQuery,
  IdentifierNode,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
  type TransactionSettings,
} from "kysely";
import { isSqliteLockError, lockTimeout, retryWhileLocked, sleep } from "./sqlite-lock-wait.js";

/**
 * A database handle that may also say whether an explicit transaction is open (better-sqlite3's
 * `inTransaction`). Without it the driver goes by the transactions it began and ended itself.
 */
export interface TransactionAwareSqliteDatabase extends SqliteDatabase {
  readonly inTransaction?: boolean | undefined;
}

/** Configuration of {@link LockWaitingSqliteDialect}. */
export interface LockWaitingSqliteConfig {
  /** The handle, or a function opening it on first use (it may itself wait for locks). */
  readonly database: TransactionAwareSqliteDatabase | (() => Promise<TransactionAwareSqliteDatabase>);
  /** Longest total wait, in milliseconds, for another connection's lock before a statement fails. */
  readonly busyTimeoutMs: number;
}

/** A FIFO lock: one holder at a time, the others served in the order they asked. */
class FifoLock {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  /** Holder and queued callers. */
  #count = 0;

  /** Whether someone holds the lock or waits for it. */
  get busy(): boolean {
    return this.#count > 0;
  }

  /** Whether someone waits for the lock besides its holder. */
  get contended(): boolean {
    return this.#count > 1;
  }

  async lock(): Promise<void> {
    this.#count += 1;
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
  }

  unlock(): void {
    const release = this.#release;
    if (release === undefined) return;
    this.#release = undefined;
    this.#count -= 1;
    release();
  }
}

/** One connection: statements outside a transaction wait for locks; inside one they fail fast. */
class LockWaitingConnection implements DatabaseConnection {
  readonly #db: TransactionAwareSqliteDatabase;
  readonly #busyTimeoutMs: number;
  /** Who holds the connection (Kysely's acquire / release). */
  readonly #mutex: FifoLock;
  /** Who may ask SQLite for a lock another connection holds: one waiter per process polls. */
  readonly #waiters = new FifoLock();
  /** Whether a transaction this driver began is open (used when the handle cannot tell). */
  began = false;

  constructor(db: TransactionAwareSqliteDatabase, busyTimeoutMs: number, mutex: FifoLock) {
    this.#db = db;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#mutex = mutex;
  }

  get inTransaction(): boolean {
    return this.#db.inTransaction ?? this.began;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return this.run(() => this.#execute<R>(compiled), false);
    return this.#waitLendingConnection(() => this.#execute<R>(compiled), this.#writes(compiled.sql));
  }

  /** Whether `sql` writes; a statement that does not even prepare counts as one (it fails in the attempt). */
  #writes(sql: string): boolean {
    try {
      return !this.#db.prepare(sql).reader;
    } catch {
      return true;
    }
  }

  /**
   * Runs `attempt` (which writes when `writes`), waiting out lock conflicts when that is safe.
   * Within a transaction a lock error ends the request as "unavailable" (503) instead; the
   * caller's transaction then rolls back.
   */
  async run<T>(attempt: () => T, retryable: boolean, writes = true): Promise<T> {
    // A busy COMMIT waits holding the connection: its transaction is open, nobody else may use it.
    if (retryable && this.inTransaction) return retryWhileLocked(attempt, this.#busyTimeoutMs);
    if (retryable) return this.#waitLendingConnection(attempt, writes);
    try {
      return attempt();
    } catch (error) {
      throw isSqliteLockError(error) ? lockTimeout(error) : error;
    }
  }

  /**
   * Retries `attempt` (no transaction open) and, during each pause, hands the connection to the
   * callers queued behind this one; it is taken back, in turn, before the next attempt. A write
   * that finds this process already waiting for the lock queues behind that waiter without trying
   * first: a thousand queued writes would otherwise each fail once, back to back, in one stretch
   * of synchronous calls that holds up the event loop.
   */
  async #waitLendingConnection<T>(attempt: () => T, writes: boolean): Promise<T> {
    let waiting = false;
    const pause = async (ms: number) => {
      this.#mutex.unlock();
      try {
        if (waiting) await sleep(ms);
        else {
          // The first time, queue behind this process's earlier waiters and then ask at once: the
          // one before us just got the lock, and ours may come free as soon as its commit does.
          await this.#waiters.lock();
          waiting = true;
        }
      } finally {
        await this.#mutex.lock();
      }
    };
    try {
      return await retryWhileLocked(attempt, this.#busyTimeoutMs, { pause, pauseFirst: writes && this.#waiters.busy });
    } finally {
      if (waiting) this.#waiters.unlock();
    }
  }

  #execute<R>({ sql, parameters }: CompiledQuery): QueryResult<R> {
    const statement = this.#db.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  async *streamQuery<R>({ sql, parameters, query }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query)) throw new Error("Sqlite driver only supports streaming of select queries");
    // Only the first step can meet a lock (taking the read snapshot); a failed iterator is closed,
    // so a retry starts a new one. Later rows come from the snapshot already taken.
    let rows: IterableIterator<R> | undefined;
    let next = await this.run(
      () => {
        rows = this.#db.prepare(sql).iterate(parameters) as IterableIterator<R>;
        return rows.next();
      },
      !this.inTransaction,
      false,
    );
    while (next.done !== true && rows !== undefined) {
      yield { rows: [next.value] };
      const iterator: IterableIterator<R> = rows;
      next = await this.run(() => iterator.next(), false);
    }
  }
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
