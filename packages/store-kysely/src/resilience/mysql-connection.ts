/**
 * The connection side of `mysql()`: the mysql2 pool (created from a URL with forgekit's limits, or
 * the caller's), its 'error' listeners, the session limits of each new connection, and the
 * resilient Kysely dialect over it.
 */
import { CompiledQuery, type DatabaseConnection, type MysqlPool } from "kysely";
import { ForgekitMysqlDialect } from "../dialects/mysql-introspector.js";
import type { Logger } from "@forgekit/core";
import { connectionLog, type ConnectionLog } from "./connection-log.js";
import { guardedMysqlPool } from "./pool-guards.js";
import { resilientDialect, type ResilientDialect } from "./resilient-dialect.js";
import { refuseLimitsForCallerPool, resolveLimits, type DatabaseLimits } from "./timeouts.js";

/** Options `mysql()` passes on. */
export interface MysqlConnectionOptions extends DatabaseLimits {
  /** Pool size when forgekit creates the pool. */
  connectionLimit: number;
  /** Checks a caller's pool before use (timestamps in UTC). */
  checkPool(pool: MysqlPool): void;
}

/** ER_UNKNOWN_SYSTEM_VARIABLE: a server without one of the limits (an old or exotic MySQL). */
const UNKNOWN_VARIABLE = 1193;

/**
 * Sets the session limits on a new connection: lock waits (`innodb_lock_wait_timeout` for rows,
 * `lock_wait_timeout` for tables and metadata, whole seconds) and the statement limit, which
 * MariaDB (`max_statement_time`, seconds, every statement) and MySQL (`max_execution_time`, ms,
 * SELECT only) name differently: the server's flavour is read once per pool.
 */
export function mysqlSessionLimits(
  limits: { statementTimeoutMs: number; lockTimeoutMs: number },
  log: ConnectionLog,
): { prepare: (connection: DatabaseConnection) => Promise<void>; lift: (connection: DatabaseConnection) => Promise<void> } | undefined {
  const lockSeconds = limits.lockTimeoutMs > 0 ? Math.max(1, Math.ceil(limits.lockTimeoutMs / 1000)) : 0;
  const statementMs = Math.ceil(limits.statementTimeoutMs);
  if (lockSeconds === 0 && statementMs === 0) return undefined;
  let flavour: Promise<boolean> | undefined;
  const isMariaDb = async (connection: DatabaseConnection): Promise<boolean> => {
    const { rows } = await connection.executeQuery<{ version: string }>(CompiledQuery.raw("select version() as version"));
    return /mariadb/i.test(String(rows[0]?.version));
  };
  const mariaDb = async (connection: DatabaseConnection): Promise<boolean> => {
    flavour ??= isMariaDb(connection);
    try {
      return await flavour;
    } catch (error) {
      flavour = undefined;
      throw error;
    }
  };
  const apply = async (connection: DatabaseConnection, settings: string[]) => {
    try {
      await connection.executeQuery(CompiledQuery.raw(`set session ${settings.join(", ")}`));
    } catch (error) {
      if ((error as { errno?: unknown } | null)?.errno !== UNKNOWN_VARIABLE) throw error;
      // Serving without a limit beats not serving: say so once.
      log.warnOnce("store.timeouts_unsupported", { message: (error as Error).message, settings });
    }
  };
  return {
    async prepare(connection) {
      const mariadb = await mariaDb(connection);
      const settings: string[] = [];
      if (lockSeconds > 0) settings.push(`innodb_lock_wait_timeout = ${lockSeconds}`, `lock_wait_timeout = ${lockSeconds}`);
      if (statementMs > 0) settings.push(mariadb ? `max_statement_time = ${(statementMs / 1000).toFixed(3)}` : `max_execution_time = ${statementMs}`);
      await apply(connection, settings);
    },
    // For migrations: the server's defaults for lock waits, no statement limit; `prepare` puts them back.
    async lift(connection) {
      const mariadb = await mariaDb(connection);
      await apply(connection, ["innodb_lock_wait_timeout = default", "lock_wait_timeout = default", mariadb ? "max_statement_time = 0" : "max_execution_time = 0"]);
    },
  };
}

/**
 * A Kysely dialect for `urlOrPool` and the hook that hands it the host's logger. From a URL, the
 * pool gets mysql2's `connectTimeout`, TCP keep-alive, the same bound on waiting for a free pooled
 * connection (mysql2 has none of its own) and the session limits above.
 */
export function mysqlConnection(urlOrPool: string | MysqlPool, options: MysqlConnectionOptions): { dialect: ResilientDialect; useLogger: (logger: Logger) => void } {
  const limits = resolveLimits(options);
  const log = connectionLog("mysql");
  // A caller's mysql2 Pool keeps its size in `config.connectionLimit` (mysql2's default: 10).
  const size = typeof urlOrPool === "string" ? options.connectionLimit : ((urlOrPool as { config?: { connectionLimit?: number } }).config?.connectionLimit ?? 10);
  const resilience = { label: "MySQL", retryAfterSeconds: limits.retryAfterSeconds, reconnectAttempts: size + 1 };
  if (typeof urlOrPool !== "string") {
    refuseLimitsForCallerPool("mysql(pool)", options, ["connectTimeoutMs", "statementTimeoutMs", "lockTimeoutMs"]);
    options.checkPool(urlOrPool);
    const pool = guardedMysqlPool(urlOrPool, { owned: false, log });
    return { dialect: resilientDialect(new ForgekitMysqlDialect({ pool }), resilience), useLogger: log.useLogger };
  }
  const uri = urlOrPool.replace(/^mariadb:/i, "mysql:");
  const open = async (): Promise<MysqlPool> => {
    const { createPool } = await import("mysql2");
    const pool = createPool({
      uri,
      dateStrings: true,
      timezone: "Z",
      charset: "utf8mb4",
      connectionLimit: options.connectionLimit,
      connectTimeout: limits.connectTimeoutMs,
      enableKeepAlive: true,
    });
    return guardedMysqlPool(pool, { owned: true, log });
  };
  const session = mysqlSessionLimits(limits, log);
  return {
    dialect: resilientDialect(new ForgekitMysqlDialect({ pool: open }), {
      ...resilience,
      acquireTimeoutMs: limits.connectTimeoutMs,
      prepareConnection: session?.prepare,
      limits: session === undefined ? undefined : { lift: session.lift, restore: session.prepare },
    }),
    useLogger: log.useLogger,
  };
}
