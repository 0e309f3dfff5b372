/**
 * The one SQLite connection of a process, as the driver (sqlite-driver.ts) hands it to Kysely:
 * statements outside a transaction wait for another process's lock on timers, lending the
 * connection to the callers queued behind them meanwhile; inside a transaction they fail fast.
 */
import { SelectQueryNode, type CompiledQuery, type DatabaseConnection, type QueryResult, type SqliteDatabase } from "kysely";
import { isSqliteLockError, lockTimeout, retryWhileLocked, sleep } from "./sqlite-lock-wait.js";

/**
 * A database handle that may also say whether an explicit transaction is open (better-sqlite3's
 * `inTransaction`). Without it the driver goes by the transactions it began and ended itself.
 */
export interface TransactionAwareSqliteDatabase extends SqliteDatabase {
  readonly inTransaction?: boolean | undefined;
}

/** A FIFO lock: one holder at a time, the others served in the order they asked. */
export class FifoLock {
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
export class LockWaitingConnection implements DatabaseConnection {
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
    const attempt = () => this.#execute<R>(compiled);
    return this.#waiters.busy ? this.#waitLendingConnection(attempt, this.#writes(compiled.sql)) : this.#tryThenWait(attempt);
  }

  /**
   * The uncontended path (nobody in this process waits for another process's lock): `attempt` is
   * tried at once, without the retry machinery; only a lock error takes the waiting path, which
   * then queues behind this process's waiters first, as its first pause would have.
   */
  #tryThenWait<T>(attempt: () => T): T | Promise<T> {
    try {
      return attempt();
    } catch (error) {
      if (!isSqliteLockError(error)) throw error;
    }
    return this.#waitLendingConnection(attempt, true, true);
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
    if (retryable) return this.#waiters.busy ? this.#waitLendingConnection(attempt, writes) : this.#tryThenWait(attempt);
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
   * of synchronous calls that holds up the event loop. `failedOnce`: the caller already tried
   * once and met a lock, so the first pause comes before the first attempt here.
   */
  async #waitLendingConnection<T>(attempt: () => T, writes: boolean, failedOnce = false): Promise<T> {
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
      return await retryWhileLocked(attempt, this.#busyTimeoutMs, { pause, pauseFirst: failedOnce || (writes && this.#waiters.busy) });
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
