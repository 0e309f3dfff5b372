/**
 * Which pg and mysql2 errors mean "the database is unavailable right now" (answered 503 +
 * Retry-After by core) rather than "this statement is wrong" (a 500, or a conflict the repository
 * handles). The shapes below are what the drivers really emit, provoked against PostgreSQL 15 /
 * MariaDB 10.11 with pg 8 and mysql2 3 (see driver-errors.test.ts).
 */

import { errorChain } from "../error-chain.js";

/** How the database failed. */
export type FailureKind =
  /** No connection could be opened (refused, unreachable, too many connections, starting up). */
  | "connect"
  /** The connection the statement used is gone (terminated, reset, killed); the pool drops it. */
  | "lost"
  /** A statement or lock timeout, or waiting too long for a pooled connection. */
  | "timeout"
  /** The server refuses writes (read-only during a failover). */
  | "read_only";

/** What a driver error says about the database. */
export interface DriverFailure {
  readonly kind: FailureKind;
  /** Short, log-safe description. */
  readonly reason: string;
  /** The statement provably never left the client, so running it on another connection is safe whatever it is. */
  readonly neverSent: boolean;
}

/**
 * PostgreSQL SQLSTATEs (appendix A of its manual). Class 08 (connection exception) is matched by
 * prefix. 57014 is also a manual cancel, which forgekit never issues.
 */
const POSTGRES_STATES: Record<string, Omit<DriverFailure, "neverSent">> = {
  "57P01": { kind: "lost", reason: "connection terminated by the server (admin_shutdown)" },
  "57P02": { kind: "lost", reason: "connection terminated by the server (crash_shutdown)" },
  "57P03": { kind: "connect", reason: "the database system is starting up or shutting down (cannot_connect_now)" },
  "57P05": { kind: "lost", reason: "connection terminated by the server (idle_session_timeout)" },
  "25P03": { kind: "lost", reason: "connection terminated by the server (idle_in_transaction_session_timeout)" },
  "53300": { kind: "connect", reason: "too many connections" },
  "57014": { kind: "timeout", reason: "statement timeout" },
  "55P03": { kind: "timeout", reason: "lock timeout" },
  "25006": { kind: "read_only", reason: "the database is read-only" },
};

/** mysql2 error numbers (MySQL / MariaDB server errors and client-side ones). */
const MYSQL_ERRNOS: Record<number, Omit<DriverFailure, "neverSent">> = {
  1040: { kind: "connect", reason: "too many connections" },
  1203: { kind: "connect", reason: "too many connections for this user" },
  1053: { kind: "lost", reason: "the server is shutting down" },
  1927: { kind: "lost", reason: "connection killed" },
  4031: { kind: "lost", reason: "connection closed by the server (interaction timeout)" },
  2006: { kind: "lost", reason: "server has gone away" },
  2013: { kind: "lost", reason: "lost connection during the query" },
  1205: { kind: "timeout", reason: "lock wait timeout" },
  1969: { kind: "timeout", reason: "statement timeout (max_statement_time)" },
  3024: { kind: "timeout", reason: "statement timeout (max_execution_time)" },
  1317: { kind: "timeout", reason: "statement interrupted" },
  1836: { kind: "read_only", reason: "the database is read-only" },
};

/** mysql2's client-side codes (no errno). */
const MYSQL_CODES: Record<string, Omit<DriverFailure, "neverSent">> = {
  PROTOCOL_CONNECTION_LOST: { kind: "lost", reason: "connection lost" },
  PROTOCOL_SEQUENCE_TIMEOUT: { kind: "timeout", reason: "query timeout" },
};

/** Node socket errors: before the connection exists they are "connect", afterwards "lost". */
const CONNECT_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "EAI_AGAIN", "ENOTFOUND"]);
const LOST_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/** Messages of errors pg and mysql2 raise without a code. */
const MESSAGES: { pattern: RegExp; failure: DriverFailure }[] = [
  // pg: the client's socket died earlier; the query was refused before being written.
  { pattern: /^Client has encountered a connection error and is not queryable/, failure: { kind: "lost", reason: "connection lost", neverSent: true } },
  // mysql2: the same, for a connection whose socket is already closed.
  { pattern: /^Can't add new command when connection is in closed state/, failure: { kind: "lost", reason: "connection lost", neverSent: true } },
  // pg: the socket closed under a running query.
  { pattern: /^Connection terminated unexpectedly/, failure: { kind: "lost", reason: "connection lost", neverSent: false } },
  // pg-pool: connectionTimeoutMillis passed while opening a connection or waiting for a free one.
  { pattern: /^Connection terminated due to connection timeout/, failure: { kind: "connect", reason: "connect timeout", neverSent: true } },
  { pattern: /^timeout exceeded when trying to connect/, failure: { kind: "timeout", reason: "no free pooled connection in time", neverSent: true } },
  // mysql2 pool limits (waitForConnections: false / queueLimit).
  { pattern: /^(No connections available|Queue limit reached)\.?$/, failure: { kind: "connect", reason: "connection pool exhausted", neverSent: true } },
];

/** Reads `code` / `errno` / `message` without trusting the error's class (DESIGN §4). */
function fields(error: object): { code: unknown; errno: unknown; message: unknown; sqlState: unknown } {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; sqlState?: unknown };
  return { code: e.code, errno: e.errno, message: e.message, sqlState: e.sqlState };
}

function classifyOne(error: object): DriverFailure | undefined {
  const { code, errno, message, sqlState } = fields(error);
  if (typeof code === "string") {
    const pgState = POSTGRES_STATES[code];
    if (pgState !== undefined) return { ...pgState, neverSent: false };
    // Class 08: connection exception (08000, 08003, 08006, 08001 can't connect, 08004 rejected, 08P01).
    if (/^08[0-9A-Z]{3}$/.test(code)) {
      return { kind: code === "08001" || code === "08004" ? "connect" : "lost", reason: `connection exception (${code})`, neverSent: false };
    }
    const mysqlCode = MYSQL_CODES[code];
    if (mysqlCode !== undefined) return { ...mysqlCode, neverSent: false };
    if (CONNECT_CODES.has(code)) return { kind: "connect", reason: `cannot connect (${code})`, neverSent: true };
    if (LOST_CODES.has(code)) return { kind: "lost", reason: `connection lost (${code})`, neverSent: false };
    if (code === "ETIMEDOUT") {
      // mysql2 and node mark a connect-phase timeout with syscall "connect".
      const connecting = (error as { syscall?: unknown }).syscall === "connect";
      return { kind: connecting ? "connect" : "lost", reason: connecting ? "connect timeout" : "connection timed out", neverSent: connecting };
    }
  }
  if (typeof errno === "number" && typeof sqlState === "string") {
    const mysqlErrno = MYSQL_ERRNOS[errno];
    if (mysqlErrno !== undefined) return { ...mysqlErrno, neverSent: false };
    // ER_OPTION_PREVENTS_STATEMENT is read-only mode only when the message says so (it covers other options too).
    if (errno === 1290 && typeof message === "string" && /read.only/i.test(message)) return { kind: "read_only", reason: "the database is read-only", neverSent: false };
  }
  if (typeof message === "string") {
    for (const { pattern, failure } of MESSAGES) if (pattern.test(message)) return failure;
  }
  return undefined;
}

/**
 * What `error` says about the database, or undefined when it is an ordinary statement error
 * (syntax, constraint, …). Looks through `cause` chains and AggregateError's `errors` (Node's
 * happy-eyeballs connect reports one error per address).
 */
export function classifyDriverError(error: unknown): DriverFailure | undefined {
  for (const link of errorChain(error)) {
    const failure = classifyOne(link);
    if (failure !== undefined) return failure;
  }
  return undefined;
}
