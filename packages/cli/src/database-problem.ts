/**
 * Database failures as the CLI and the demo host report them: the cause and a hint (store-kysely's
 * `explainDatabaseError` against the selected database), with the URL's secrets masked; and the
 * missing-SQLite-file check that keeps commands other than `migrate` / `seed-demo` from creating one.
 */
import { existsSync } from "node:fs";
import type { ForgekitError } from "@forgekit/core";
import { explainDatabaseError, maskDatabaseSecrets, type DatabaseProblem } from "@forgekit/store-kysely";
import { storeLocation, type DatabaseTarget } from "./database.js";
import { describeError, errorJson } from "./describe-error.js";
import type { CliIo } from "./io.js";

/** How to create a database, as the hints say it. */
const CREATE_HINT = "create it with `forgekit migrate` (or `forgekit seed-demo` for the quick start with demo data)";

/**
 * The problem of an SQLite target whose file does not exist (undefined when it exists, is
 * `:memory:`, or the target is a server). Commands that only use a database report it rather than
 * create an empty file (and its folders) that has no schema anyway.
 */
export function missingDatabase(target: DatabaseTarget): DatabaseProblem | undefined {
  if (target.kind !== "sqlite" || target.path === ":memory:" || existsSync(target.path)) return undefined;
  return {
    kind: "file_missing",
    cause: `the SQLite database ${target.path} does not exist`,
    hint: `${CREATE_HINT}, or point --database / DATABASE_URL at an existing database`,
  };
}

/** Explains `error` (thrown, or a ForgekitError's cause) against `target`; undefined if unknown. */
export function explainFailure(error: unknown, target: DatabaseTarget): DatabaseProblem | undefined {
  return explainDatabaseError(error, { location: storeLocation(target) });
}

/** `text` without the target's password or token-like parameters. */
export function maskSecrets(text: string, target: DatabaseTarget): string {
  return maskDatabaseSecrets(text, storeLocation(target));
}

/** Prints a database problem (`error: …` / `hint: …`, or one JSON object on stderr with --json). */
export function printProblem(io: CliIo, json: boolean, problem: DatabaseProblem, code = "database"): void {
  io.stderr(
    json ? `${JSON.stringify({ error: { code, problem: problem.kind, message: problem.cause, hint: problem.hint } })}\n` : `error: ${problem.cause}\nhint: ${problem.hint}\n`,
  );
}

/** Prints a failed command's ForgekitError: explained when it is a database failure, masked always. */
export function printForgekitError(io: CliIo, json: boolean, error: ForgekitError, target: DatabaseTarget): void {
  if (error.code === "internal" || error.code === "unavailable") {
    const problem = explainFailure(error.cause, target);
    if (problem !== undefined) return printProblem(io, json, problem, error.code);
  }
  const text = json ? JSON.stringify({ error: errorJson(error) }) : `error: ${describeError(error)}`;
  io.stderr(`${maskSecrets(text, target)}\n`);
}

/** Prints a thrown error (opening the store, an unexpected failure): explained, else its masked message. */
export function printThrown(io: CliIo, json: boolean, error: unknown, target: DatabaseTarget, context: string): void {
  const problem = explainFailure(error, target);
  if (problem !== undefined) return printProblem(io, json, problem);
  const message = maskSecrets(`${context}${error instanceof Error ? error.message : String(error)}`, target);
  io.stderr(json ? `${JSON.stringify({ error: { code: "internal", message } })}\n` : `error: ${message}\n`);
}
