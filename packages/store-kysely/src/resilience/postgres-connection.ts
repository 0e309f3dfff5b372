/**
 * The connection side of `postgres()`: the pg pool (created from a URL with forgekit's limits, or
 * the caller's), its 'error' listeners, and the resilient Kysely dialect over it.
 */
import { CompiledQuery, type DatabaseConnection, type PostgresPool } from "kysely";
import { ForgekitPostgresDialect } from "../dialects/postgres-introspector.js";
import type { Logger } from "@forgekit/core";
import { connectionLog } from "./connection-log.js";
import { guardedPostgresPool } from "./pool-guards.js";
import { resilientDialect, type ResilientDialect } from "./resilient-dialect.js";
import { DEFAULT_LIMITS, limit, refuseLimitsForCallerPool, resolveLimits, type DatabaseLimits } from "./timeouts.js";

/** PostgreSQL limits: the shared ones plus the idle-in-transaction limit. */
export interface PostgresLimits extends DatabaseLimits {
  /**
   * How long a transaction may sit idle before the server ends its session, releasing its locks
   * (default 60000): PostgreSQL `idle_in_transaction_session_timeout`.
   */
  idleInTransactionTimeoutMs?: number;
}

/** Options `postgres()` passes on. */
export interface PostgresConnectionOptions extends PostgresLimits {
  /** Pool size when forgekit creates the pool. */
  max: number;
}

/**
 * A Kysely dialect for `urlOrPool` and the hook that hands it the host's logger. From a URL, the
 * pool gets `connectionTimeoutMillis`, `statement_timeout`, `lock_timeout` and
 * `idle_in_transaction_session_timeout` (startup parameters: every connection has them from the
 * start; parameters in the URL's query string take precedence) and TCP keep-alive, so a vanished
 * server is noticed.
 */
export function postgresConnection(urlOrPool: string | PostgresPool, options: PostgresConnectionOptions): { dialect: ResilientDialect; useLogger: (logger: Logger) => void } {
  const limits = resolveLimits(options);
  const idleInTransaction = limit("idleInTransactionTimeoutMs", options.idleInTransactionTimeoutMs, DEFAULT_LIMITS.idleInTransactionTimeoutMs);
  const log = connectionLog("postgres");
  // A caller's pg Pool keeps its size in `options.max` (pg's default: 10).
  const size = typeof urlOrPool === "string" ? options.max : ((urlOrPool as { options?: { max?: number } }).options?.max ?? 10);
  const resilience = { label: "PostgreSQL", retryAfterSeconds: limits.retryAfterSeconds, reconnectAttempts: size + 1 };
  if (typeof urlOrPool !== "string") {
    refuseLimitsForCallerPool("postgres(pool)", options, ["connectTimeoutMs", "statementTimeoutMs", "lockTimeoutMs", "idleInTransactionTimeoutMs"]);
    const pool = guardedPostgresPool(urlOrPool, { owned: false, log });
    return { dialect: resilientDialect(new ForgekitPostgresDialect({ pool }), resilience), useLogger: log.useLogger };
  }
  const open = async (): Promise<PostgresPool> => {
    const { default: pg } = await import("pg");
    // pg sends a parameter only when it is truthy: 0 leaves the server's own setting.
    const pool = new pg.Pool({
      connectionString: urlOrPool,
      max: options.max,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      lock_timeout: limits.lockTimeoutMs,
      idle_in_transaction_session_timeout: idleInTransaction,
      keepAlive: true,
    });
    return guardedPostgresPool(pool, { owned: true, log });
  };
  return { dialect: resilientDialect(new ForgekitPostgresDialect({ pool: open }), { ...resilience, limits: POSTGRES_LIFT }), useLogger: log.useLogger };
}

/**
 * Lifting the limits for migrations: session SETs, undone by RESET, which returns each to the value
 * the connection started with (the startup parameters above).
 */
const POSTGRES_LIFT = {
  lift: (connection: DatabaseConnection) => connection.executeQuery(CompiledQuery.raw("set statement_timeout = 0; set lock_timeout = 0; set idle_in_transaction_session_timeout = 0")).then(() => undefined),
  restore: (connection: DatabaseConnection) => connection.executeQuery(CompiledQuery.raw("reset statement_timeout; reset lock_timeout; reset idle_in_transaction_session_timeout")).then(() => undefined),
};
