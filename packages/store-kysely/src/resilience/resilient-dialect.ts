/**
 * A Kysely dialect wrapper that sits between Kysely and the pg / mysql2 driver, so every query,
 * transaction and migration of the store gets the same treatment:
 *
 * - an error that means the database is unavailable (driver-errors.ts) is rethrown as core's
 *   `storeUnavailable` (503 + Retry-After); any other error passes through untouched;
 * - a statement that fails because its pooled connection turned out dead runs again on another
 *   connection when that is safe: it is the first statement of its connection lease (no session
 *   state lost), outside a transaction, and either a read or provably never sent. A `begin` on a dead
 *   connection is repeated the same way, since nothing of the transaction has run yet. After a
 *   restart every idle connection of the pool may be dead, and a dead one fails at once, so this goes
 *   on while each attempt fails that way, at most `reconnectAttempts` times (pool size + 1: the last
 *   one is a newly opened connection). Writes that may have reached the server are never repeated:
 *   the caller gets a 503 and decides;
 * - a rollback that fails because the connection is gone is not an error (the server rolls back the
 *   transaction of a dropped connection), so the error that caused the rollback is the one reported;
 * - optionally, waiting for a pooled connection is bounded (mysql2's pool has no such limit), and
 *   each new connection is prepared once before its first statement (session timeouts);
 * - `withoutLimits(fn)` lifts the statement and lock limits from the connections checked out while
 *   `fn` runs and puts them back on release: migrations wait for each other's lock and may run long.
 */
import { isStoreUnavailable, storeUnavailable } from "@forgekit/core";
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from "kysely";
import { classifyDriverError, type DriverFailure } from "./driver-errors.js";

/** How the wrapper behaves. */
export interface ResilienceOptions {
  /** Database name used in error messages ("PostgreSQL", "MySQL"). */
  readonly label: string;
  /** `Retry-After` seconds of the 503 an unavailable database yields. */
  readonly retryAfterSeconds: number;
  /** How often a statement may move to another connection because its own turned out dead (pool size + 1). */
  readonly reconnectAttempts: number;
  /** Give up waiting for a connection from the pool after this many ms; 0 or absent: the driver's own limit. */
  readonly acquireTimeoutMs?: number | undefined;
  /** Runs once on each new connection before its first statement (e.g. session timeouts). */
  readonly prepareConnection?: ((connection: DatabaseConnection) => Promise<void>) | undefined;
  /** Takes the session's statement and lock limits off (`lift`) and puts them back (`restore`). */
  readonly limits?: { lift(connection: DatabaseConnection): Promise<void>; restore(connection: DatabaseConnection): Promise<void> } | undefined;
}

/** A dialect whose limits can be lifted while a task runs. */
export interface ResilientDialect extends Dialect {
  /**
   * Runs `fn` with every connection checked out meanwhile free of statement and lock limits
   * (`migrate`: a migrator waits for another's lock, and a migration may outlast a statement
   * limit). Requests served at the same time get such connections too; migrations run at start-up.
   */
  withoutLimits<T>(fn: () => Promise<T>): Promise<T>;
}

/** `inner` with unavailable errors classified and dead connections retried (see the module comment). */
export function resilientDialect(inner: Dialect, options: ResilienceOptions): ResilientDialect {
  const mode = { unlimited: 0 };
  return {
    createDriver: () => new ResilientDriver(inner.createDriver(), options, mode),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    async withoutLimits(fn) {
      mode.unlimited += 1;
      try {
        return await fn();
      } finally {
        mode.unlimited -= 1;
      }
    },
  };
}

/** Whether running `query` twice is harmless: a plain SELECT (no data-modifying WITH). */
function isRead(query: CompiledQuery): boolean {
  const node = query.query as { kind: string; with?: { expressions: readonly { expression: { kind: string } }[] } };
  if (node.kind === "SelectQueryNode") return (node.with?.expressions ?? []).every((cte) => cte.expression.kind === "SelectQueryNode");
  return node.kind === "RawNode" && /^\s*select\b/i.test(query.sql);
}

/** One checkout from the pool; the underlying connection is swapped when it turns out dead. */
class Lease implements DatabaseConnection {
  /** null after a failed swap: nothing left to release. */
  connection: DatabaseConnection | null;
  /** Whether any statement (or `begin`) has run on this lease: afterwards, session state may matter. */
  used = false;
  inTransaction = false;
  /** Whether the limits were lifted from this lease's connections (and must be put back). */
  unlimited = false;

  constructor(
    connection: DatabaseConnection,
    private readonly driver: ResilientDriver,
  ) {
    this.connection = connection;
  }

  current(): DatabaseConnection {
    if (this.connection === null) throw this.driver.unavailable(new Error("no connection after a failed reconnect"));
    return this.connection;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const first = !this.used && !this.inTransaction;
    this.used = true;
    const read = isRead(query);
    return this.driver.onLiveConnection(this, first, (failure) => failure.neverSent || (failure.kind === "lost" && read), (connection) => connection.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.used = true;
    try {
      yield* this.current().streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw this.driver.unavailable(error);
    }
  }
}

function asLease(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease)) throw new TypeError("resilientDialect: a connection this driver did not hand out");
  return connection;
}

type CompileQuery = QueryCompiler["compileQuery"];

class ResilientDriver implements Driver {
  readonly #prepared = new WeakSet<DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly options: ResilienceOptions,
    private readonly mode: { readonly unlimited: number },
  ) {}

  /** The error to throw for `error`: core's storeUnavailable when the database is unavailable, else `error` itself. */
  unavailable(error: unknown, failure: DriverFailure | undefined = classifyDriverError(error)): unknown {
    if (failure === undefined || isStoreUnavailable(error)) return error;
    return storeUnavailable(`${this.options.label} unavailable: ${failure.reason}`, { cause: error, retryAfterSeconds: this.options.retryAfterSeconds });
  }

  async init(): Promise<void> {
    try {
      await this.inner.init();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const lease = new Lease(await this.checkout(), this);
    lease.unlimited = this.mode.unlimited > 0 && this.options.limits !== undefined;
    if (lease.unlimited) await this.lift(lease);
    return lease;
  }

  /** Takes the limits off the lease's connection; on failure the connection goes back to the pool. */
  private async lift(lease: Lease): Promise<void> {
    try {
      await this.options.limits?.lift(lease.current());
    } catch (error) {
      lease.unlimited = false;
      await this.releaseConnection(lease);
      throw this.unavailable(error);
    }
  }

  /**
   * Runs `work` on the lease's connection; when it fails because that connection is dead, `mayRepeat`
   * allows it and the lease is still `fresh` (no session state to lose), swaps in another connection
   * and runs it again, up to `reconnectAttempts` times. Unavailable failures become storeUnavailable.
   */
  async onLiveConnection<T>(lease: Lease, fresh: boolean, mayRepeat: (failure: DriverFailure) => boolean, work: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work(lease.current());
      } catch (error) {
        if (isStoreUnavailable(error)) throw error;
        const failure = classifyDriverError(error);
        if (failure === undefined) throw error;
        if (!fresh || attempt > this.options.reconnectAttempts || !mayRepeat(failure)) throw this.unavailable(error, failure);
        await this.replace(lease);
      }
    }
  }

  /** Releases the lease's dead connection and gives it another one. */
  async replace(lease: Lease): Promise<void> {
    const dead = lease.connection;
    lease.connection = null;
    // The drivers drop a connection whose socket is gone when it comes back to the pool.
    if (dead !== null) await this.inner.releaseConnection(dead).catch(() => undefined);
    lease.connection = await this.checkout();
    if (lease.unlimited) await this.lift(lease);
  }

  private async checkout(): Promise<DatabaseConnection> {
    let connection: DatabaseConnection;
    try {
      connection = await this.withDeadline(this.inner.acquireConnection());
    } catch (error) {
      throw this.unavailable(error);
    }
    const prepare = this.options.prepareConnection;
    if (prepare !== undefined && !this.#prepared.has(connection)) {
      try {
        await prepare(connection);
        this.#prepared.add(connection);
      } catch (error) {
        await this.inner.releaseConnection(connection).catch(() => undefined);
        throw this.unavailable(error);
      }
    }
    return connection;
  }

  private withDeadline(pending: Promise<DatabaseConnection>): Promise<DatabaseConnection> {
    const limit = this.options.acquireTimeoutMs ?? 0;
    if (limit <= 0) return pending;
    return new Promise((resolve, reject) => {
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        reject(storeUnavailable(`${this.options.label} unavailable: no connection within ${limit} ms`, { retryAfterSeconds: this.options.retryAfterSeconds }));
      }, limit);
      pending.then(
        (connection) => {
          clearTimeout(timer);
          // Arrived after the caller gave up: straight back to the pool.
          if (expired) void this.inner.releaseConnection(connection).catch(() => undefined);
          else resolve(connection);
        },
        (error: Error) => {
          clearTimeout(timer);
          if (!expired) reject(error);
        },
      );
    });
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lease = asLease(connection);
    const first = !lease.used;
    lease.used = true;
    // Nothing of the transaction has run: a dead connection at `begin` is replaced and `begin` repeated.
    await this.onLiveConnection(lease, first, (failure) => failure.kind === "lost" || failure.neverSent, (live) => this.inner.beginTransaction(live, settings));
    lease.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = asLease(connection);
    try {
      await this.inner.commitTransaction(lease.current());
    } catch (error) {
      throw this.unavailable(error);
    } finally {
      lease.inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = asLease(connection);
    try {
      await this.inner.rollbackTransaction(lease.current());
    } catch (error) {
      // The server rolls back the open transaction of a connection it lost: nothing left to undo.
      if (classifyDriverError(error)?.kind === "lost") return;
      throw this.unavailable(error);
    } finally {
      lease.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    await this.forward("savepoint", connection, name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    await this.forward("rollbackToSavepoint", connection, name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    await this.forward("releaseSavepoint", connection, name, compileQuery);
  }

  private async forward(method: "savepoint" | "rollbackToSavepoint" | "releaseSavepoint", connection: DatabaseConnection, name: string, compileQuery: CompileQuery): Promise<void> {
    const run = this.inner[method]?.bind(this.inner);
    if (run === undefined) throw new Error(`The \`${method}\` method is not supported by this driver`);
    try {
      await run(asLease(connection).current(), name, compileQuery);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = asLease(connection);
    const held = lease.connection;
    lease.connection = null;
    if (held === null) return;
    // A dead connection cannot be restored, and the pool drops it anyway.
    if (lease.unlimited) await this.options.limits?.restore(held).catch(() => undefined);
    await this.inner.releaseConnection(held);
  }

  async destroy(): Promise<void> {
    await this.inner.destroy();
  }
}
