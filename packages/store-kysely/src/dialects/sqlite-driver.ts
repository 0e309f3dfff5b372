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
import { isSqliteLockError, lockTimeout, retryWhileLocked } from "./sqlite-lock-wait.js";

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

/** One connection: statements outside a transaction wait for locks; inside one they fail fast. */
class LockWaitingConnection implements DatabaseConnection {
  readonly #db: TransactionAwareSqliteDatabase;
  readonly #busyTimeoutMs: number;
  /** Whether a transaction this driver began is open (used when the handle cannot tell). */
  began = false;

  constructor(db: TransactionAwareSqliteDatabase, busyTimeoutMs: number) {
    this.#db = db;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  get inTransaction(): boolean {
    return this.#db.inTransaction ?? this.began;
  }

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return this.run(() => this.#execute<R>(compiled));
  }

  /**
   * Runs `attempt`, waiting out lock conflicts when that is safe. Within a transaction a lock error
   * ends the request as "unavailable" (503) instead; the caller's transaction then rolls back.
   */
  async run<T>(attempt: () => T, retryable = !this.inTransaction): Promise<T> {
    if (retryable) return retryWhileLocked(attempt, this.#busyTimeoutMs);
    try {
      return attempt();
    } catch (error) {
      throw isSqliteLockError(error) ? lockTimeout(error, 0) : error;
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
    let next = await this.run(() => {
      rows = this.#db.prepare(sql).iterate(parameters) as IterableIterator<R>;
      return rows.next();
    });
    while (next.done !== true && rows !== undefined) {
      yield { rows: [next.value] };
      const iterator: IterableIterator<R> = rows;
      next = await this.run(() => iterator.next(), false);
    }
  }
}

/** A FIFO lock over the one connection (Kysely hands it to one caller at a time). */
class ConnectionMutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
  }

  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

const raw = (text: string) => CompiledQuery.raw(text);

function savepointCommand(command: string, name: string, compileQuery: QueryCompiler["compileQuery"]): CompiledQuery {
  const node = RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
  return compileQuery(node, { queryId: `forgekit-savepoint-${name}` });
}

/** The driver: Kysely's SqliteDriver contract with lock waits and `BEGIN IMMEDIATE`. */
export class LockWaitingSqliteDriver implements Driver {
  readonly #config: LockWaitingSqliteConfig;
  readonly #mutex = new ConnectionMutex();
  #db: TransactionAwareSqliteDatabase | undefined;
  #connection: LockWaitingConnection | undefined;

  constructor(config: LockWaitingSqliteConfig) {
    this.#config = config;
  }

  async init(): Promise<void> {
    const { database } = this.#config;
    this.#db = typeof database === "function" ? await database() : database;
    this.#connection = new LockWaitingConnection(this.#db, this.#config.busyTimeoutMs);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
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
    this.#mutex.unlock();
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
