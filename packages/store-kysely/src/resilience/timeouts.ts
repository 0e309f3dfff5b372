/**
 * The database limits shared by the PostgreSQL and MySQL dialects: how long to wait for a
 * connection, a statement and a lock before answering 503 instead of hanging. They apply to pools
 * forgekit creates from a URL; a caller-owned pool keeps the settings its owner gave it.
 */

/** Options every server dialect takes (milliseconds; 0 turns a limit off). */
export interface DatabaseLimits {
  /**
   * How long to wait for a connection: opening one (TCP + handshake) or waiting for a free one in a
   * full pool (default 5000). PostgreSQL: pg-pool `connectionTimeoutMillis`; MySQL: mysql2
   * `connectTimeout` plus the same bound on the pool's queue.
   */
  connectTimeoutMs?: number;
  /**
   * How long one statement may run (default 15000). PostgreSQL `statement_timeout`; MariaDB
   * `max_statement_time` (every statement); MySQL `max_execution_time` (SELECT only: MySQL has no
   * general limit, its writes are bounded by the lock timeout). `migrate()` runs free of this and
   * of the lock limit (resilient-dialect.ts, `withoutLimits`).
   */
  statementTimeoutMs?: number;
  /**
   * How long a statement waits for a lock (default 5000). PostgreSQL `lock_timeout`; MySQL /
   * MariaDB `innodb_lock_wait_timeout` (row locks) and `lock_wait_timeout` (table and metadata
   * locks), both in whole seconds (rounded up, at least 1).
   */
  lockTimeoutMs?: number;
  /** `Retry-After` seconds sent with the 503 when the database is unavailable (default 1). */
  retryAfterSeconds?: number;
}

/** Defaults of {@link DatabaseLimits} (and PostgreSQL's idle-in-transaction limit). */
export const DEFAULT_LIMITS = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 60_000,
  retryAfterSeconds: 1,
} as const;

/** `value` if given, else `fallback`; a negative or non-finite value is a programming error at boot. */
export function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a non-negative number of milliseconds (0 turns it off), got ${String(value)}`);
  return value;
}

/** The limits with defaults applied. */
export function resolveLimits(options: DatabaseLimits): Required<DatabaseLimits> {
  const retryAfterSeconds = options.retryAfterSeconds ?? DEFAULT_LIMITS.retryAfterSeconds;
  if (!Number.isFinite(retryAfterSeconds) || retryAfterSeconds < 1) throw new TypeError(`retryAfterSeconds must be at least 1, got ${String(retryAfterSeconds)}`);
  return {
    connectTimeoutMs: limit("connectTimeoutMs", options.connectTimeoutMs, DEFAULT_LIMITS.connectTimeoutMs),
    statementTimeoutMs: limit("statementTimeoutMs", options.statementTimeoutMs, DEFAULT_LIMITS.statementTimeoutMs),
    lockTimeoutMs: limit("lockTimeoutMs", options.lockTimeoutMs, DEFAULT_LIMITS.lockTimeoutMs),
    retryAfterSeconds,
  };
}

/** Throws when limits are given for a pool forgekit does not create (they would silently do nothing). */
export function refuseLimitsForCallerPool(factory: string, options: object, names: readonly string[]): void {
  const given = names.filter((name) => (options as Record<string, unknown>)[name] !== undefined);
  if (given.length > 0) {
    throw new TypeError(`${factory}: ${given.join(", ")} apply to pools forgekit creates from a URL; set them on your own pool instead`);
  }
}
