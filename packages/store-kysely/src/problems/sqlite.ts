/**
 * SQLite (better-sqlite3) failures at open and start-up: a file that is not a database, a path that
 * cannot be opened (missing folder, a folder instead of a file, no write permission), a read-only
 * file. The file system is looked at to tell the cases apart, since SQLite says only
 * "unable to open database file".
 */
import { accessSync, constants, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { DatabaseProblem, DriverError } from "./kinds.js";
import type { DatabaseLocation } from "./location.js";

const MIGRATE = "`forgekit migrate`";

function kindOf(path: string): "file" | "folder" | "missing" | "other" {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "folder" : stat.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest ancestor of `path` that exists (a folder or, the trouble, a file). */
function nearestExisting(path: string): string {
  let at = dirname(path);
  while (kindOf(at) === "missing" && dirname(at) !== at) at = dirname(at);
  return at;
}

/** Why `path` (or its folder, for `mkdir` failures) could not be opened or created. */
function openProblem(path: string, error: DriverError): DatabaseProblem {
  const folder = dirname(path);
  const what = kindOf(path);
  if (what === "folder") {
    return { kind: "cannot_open", cause: `cannot open the SQLite database ${path}: it is a folder, not a file`, hint: `give the path of a database file instead, e.g. ${path.replace(/\/$/, "")}/forgekit.db` };
  }
  if (kindOf(folder) === "missing") {
    const existing = nearestExisting(path);
    if (kindOf(existing) !== "folder") {
      return { kind: "cannot_open", cause: `cannot create the folder ${folder} for the SQLite database: ${existing} is a file, not a folder`, hint: "choose a database path whose folders can be created (or move that file away)" };
    }
    return {
      kind: "cannot_open",
      cause: `cannot open the SQLite database ${path}: the folder ${folder} does not exist`,
      hint: `create it with \`mkdir -p ${folder}\` and run ${MIGRATE} (which creates the folder and the database), or correct the path`,
    };
  }
  if (what === "missing" && writable(folder)) {
    return { kind: "file_missing", cause: `the SQLite database ${path} does not exist`, hint: `create it with ${MIGRATE} (\`forgekit seed-demo\` adds the quick start's demo data), or correct the path` };
  }
  const code = error.code ?? "CANTOPEN";
  return {
    kind: "cannot_open",
    cause: `cannot open the SQLite database ${path}: ${what === "missing" ? `the folder ${folder}` : `the file or its folder ${folder}`} is not writable by this user (${code})`,
    hint: `give this user write access to ${folder}${what === "missing" ? "" : ` and ${path}`} (SQLite also writes ${basename(path)}-wal and ${basename(path)}-shm there), or choose another path`,
  };
}

/** The problem an SQLite or file-system error describes, or undefined when it is none of these. */
export function sqliteProblem(error: DriverError, location: DatabaseLocation): DatabaseProblem | undefined {
  const code = error.code ?? "";
  const path = location.path;
  const file = path ?? "the database file";
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return {
      kind: "not_a_database",
      cause: `${file} is not an SQLite database or is corrupt (${code}: ${error.message})`,
      hint: `point the database URL at the right file; or move this file aside (restore it from a backup if it held data) and run ${MIGRATE} to create a new database`,
    };
  }
  if (code.startsWith("SQLITE_READONLY")) {
    const folder = path === undefined ? "its folder" : dirname(path);
    return {
      kind: "read_only",
      cause: `${file} is read-only (${code}: ${error.message})`,
      hint: `give this user write access to ${path ?? "the file"} and ${folder}: SQLite also writes the -wal and -shm files next to it`,
    };
  }
  const cannotOpen = code.startsWith("SQLITE_CANTOPEN") || /directory does not exist/i.test(error.message);
  // The demo host and the CLI create the database's folder first: mkdir's own errors.
  const cannotCreateFolder = error.syscall === "mkdir" && ["ENOTDIR", "EEXIST", "EACCES", "EPERM", "EROFS", "ENOENT"].includes(code);
  if ((cannotOpen || cannotCreateFolder) && path !== undefined) return openProblem(path, error);
  if (cannotOpen) return { kind: "cannot_open", cause: `cannot open the SQLite database (${code || error.message})`, hint: "check that the database path exists, is a file and is writable by this user" };
  return undefined;
}
