/**
 * Database failures explained for operators: `explainDatabaseError` turns what a driver threw
 * (connection refused, unknown host, timeout, missing database, refused login, a file that is not a
 * database, a read-only file, a schema never migrated, …) into a `{ cause, hint }` pair with the
 * URL's secrets masked. The store's `migrate()` throws its failures with that explanation as the
 * message (see {@link databaseProblemError}); the CLI and the demo host print both parts.
 */
import type { StoreUnavailableError } from "@forgekit/core";
import { errorChain } from "../error-chain.js";
import type { DialectName } from "../dialects/traits.js";
import { driverError, type DatabaseProblem, type DriverError } from "./kinds.js";
import { databaseLocation, scrub, type DatabaseLocation } from "./location.js";
import { serverProblem, unavailableProblem } from "./server.js";
import { sqliteProblem } from "./sqlite.js";

export type { DatabaseProblem, DatabaseProblemKind } from "./kinds.js";
export { redactDatabaseUrl } from "./location.js";

/** Marks errors built by {@link databaseProblemError}, so explaining one again reads its cause. */
const PROBLEM_CODE = "FORGEKIT_DATABASE_PROBLEM";
/**
 * core's store-unavailable marker (ports/store-errors.ts): a wrapper, its cause is the driver's error.
 * Typed from core's error so a change of the marker there fails to compile here.
 */
const UNAVAILABLE_CODE: StoreUnavailableError["code"] = "FORGEKIT_STORE_UNAVAILABLE";

/** Where the failing database is: its URL or SQLite path, or at least its dialect. */
export interface ExplainOptions {
  /** The DATABASE_URL-style string or SQLite path the store was opened with. */
  location?: string | undefined;
  /** The dialect, when no location is known (the store's migrate knows only its traits). */
  dialect?: DialectName | undefined;
}

/** A schema never migrated, on every dialect: the forgekit tables are missing. */
function notMigrated(error: DriverError, location: DatabaseLocation): DatabaseProblem | undefined {
  const missingTable =
    error.code === "42P01" ||
    error.code === "ER_NO_SUCH_TABLE" ||
    error.errno === 1146 ||
    (error.code?.startsWith("SQLITE_") === true && /^no such table\b/i.test(error.message));
  if (!missingTable) return undefined;
  const where = location.display === undefined ? "the database" : `the database ${location.display}`;
  return {
    kind: "not_migrated",
    cause: `${where} has not been migrated: ${scrub(error.message, location)}`,
    hint: "run `forgekit migrate` (or call `fk.migrate()` at start-up) to create the forgekit tables",
  };
}

function explainOne(error: DriverError, location: DatabaseLocation): DatabaseProblem | undefined {
  const migrated = notMigrated(error, location);
  if (migrated !== undefined) return migrated;
  if (location.dialect === "sqlite" || error.code?.startsWith("SQLITE_") === true) return sqliteProblem(error, location);
  return serverProblem(error, location) ?? (location.dialect === undefined ? sqliteProblem(error, location) : undefined);
}

/**
 * Explains a failure to open, reach or use a database, or returns undefined for an error that is
 * none of the known cases (then show its message, passed through {@link redactDatabaseUrl}'s
 * masking). Looks through `cause` chains and aggregate errors, so a store-unavailable wrapper or a
 * migration error built by {@link databaseProblemError} is explained by the driver error inside.
 */
export function explainDatabaseError(error: unknown, options: ExplainOptions = {}): DatabaseProblem | undefined {
  const location = databaseLocation(options.location, options.dialect);
  let unavailable: string | undefined;
  for (const link of errorChain(error)) {
    const code = (link as { code?: unknown }).code;
    if (code === UNAVAILABLE_CODE) unavailable ??= String((link as { message?: unknown }).message);
    if (code === PROBLEM_CODE || code === UNAVAILABLE_CODE) continue;
    const fields = driverError(link);
    const problem = fields === undefined ? undefined : explainOne(fields, location);
    if (problem !== undefined) return problem;
  }
  return unavailable === undefined ? undefined : unavailableProblem(unavailable, location);
}

/**
 * `text` (an error message to show) with the password and token-like parameters of `location`, and
 * any `scheme://user:password@` in it, replaced by `***`.
 */
export function maskDatabaseSecrets(text: string, location?: string): string {
  return scrub(text, databaseLocation(location));
}

/** A failure with its explanation: the message is `cause (hint: …)`, the driver's error is `cause`. */
export interface DatabaseProblemError extends Error {
  readonly code: typeof PROBLEM_CODE;
  readonly problem: DatabaseProblem;
  readonly hint: string;
}

/** Wraps `cause` (the driver's error) with its explanation, for hosts that only print `.message`. */
export function databaseProblemError(problem: DatabaseProblem, cause: unknown): DatabaseProblemError {
  const error = new Error(`${problem.cause} (hint: ${problem.hint})`, { cause }) as Error & { code: string; problem: DatabaseProblem; hint: string };
  error.name = "DatabaseProblemError";
  error.code = PROBLEM_CODE;
  error.problem = problem;
  error.hint = problem.hint;
  return error as DatabaseProblemError;
}

/** The explanation `error` carries when it was built by {@link databaseProblemError}. */
export function problemOf(error: unknown): DatabaseProblem | undefined {
  for (const link of errorChain(error)) {
    if ((link as { code?: unknown }).code === PROBLEM_CODE) return (link as DatabaseProblemError).problem;
  }
  return undefined;
}
