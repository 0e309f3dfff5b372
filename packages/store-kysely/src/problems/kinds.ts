/** The shapes shared by the problem rules: what a rule reads off a driver error and what it returns. */

/** What went wrong with a database, in words an operator can act on. */
export type DatabaseProblemKind =
  | "connection_refused"
  | "host_not_found"
  | "unreachable"
  | "timeout"
  | "connection_lost"
  /** The store said "unavailable" (too many connections, no pooled connection in time, a lock held). */
  | "unavailable"
  | "database_missing"
  | "access_denied"
  /** Logged in, but the user may not create or use forgekit's tables. */
  | "permission_denied"
  | "not_migrated"
  | "not_a_database"
  | "file_missing"
  | "cannot_open"
  | "read_only";

/**
 * A database failure explained: `cause` says what is wrong (one line, secrets masked), `hint` what to
 * do about it (a command to run, a setting to check).
 */
export interface DatabaseProblem {
  kind: DatabaseProblemKind;
  cause: string;
  hint: string;
}

/** The fields of a driver or Node system error the rules look at. */
export interface DriverError {
  code: string | undefined;
  errno: number | undefined;
  message: string;
  /** Node network errors: the address and port tried, the host name looked up. */
  address: string | undefined;
  port: number | undefined;
  hostname: string | undefined;
  /** Node file-system errors: the path and system call. */
  path: string | undefined;
  syscall: string | undefined;
}

/** Reads the fields of `value` when it looks like an error (any object with a string message). */
export function driverError(value: unknown): DriverError | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v["message"] !== "string") return undefined;
  const text = (key: string) => (typeof v[key] === "string" ? v[key] : undefined);
  const number = (key: string) => (typeof v[key] === "number" ? v[key] : undefined);
  // Node's happy-eyeballs connect throws an AggregateError whose members name the addresses tried.
  const first = Array.isArray(v["errors"]) ? (v["errors"][0] as Record<string, unknown> | undefined) : undefined;
  const address = text("address") ?? (typeof first?.["address"] === "string" ? first["address"] : undefined);
  const port = number("port") ?? (typeof first?.["port"] === "number" ? first["port"] : undefined);
  return {
    code: text("code"),
    errno: number("errno"),
    message: v["message"],
    address,
    port,
    hostname: text("hostname"),
    path: text("path"),
    syscall: text("syscall"),
  };
}
