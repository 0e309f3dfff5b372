/**
 * Which database a command line means: `postgres://…` / `postgresql://…`, `mysql://…` /
 * `mariadb://…`, `sqlite:<path>` (also `sqlite://`, `sqlite:///abs`, `sqlite::memory:`, `file:`), or
 * anything else as an SQLite file path (relative to the working directory; `:memory:` for a
 * throw-away database). Also where the demo token file goes for it.
 */
import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { redactDatabaseUrl } from "@forgekit/store-kysely";
import { UsageError } from "./usage-error.js";

/** The default database: an SQLite file under ./data. */
export const DEFAULT_DATABASE = "./data/forgekit.db";

/** Where the CLI's data lives: a PostgreSQL or MySQL server by URL, or an SQLite file by absolute path. */
export type DatabaseTarget =
  | { kind: "postgres" | "mysql"; url: string }
  | { kind: "sqlite"; path: string };

/** Classifies `value`; throws UsageError for a URL of another scheme. */
export function databaseTarget(value: string, cwd: string): DatabaseTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return { kind: "postgres", url: value };
  if (scheme === "mysql" || scheme === "mariadb") return { kind: "mysql", url: value };
  // sqlite:./x.db, sqlite:x.db, sqlite:///abs/x.db, sqlite://rel.db, sqlite::memory: (and file: alike).
  const file = /^(sqlite|file):(?:\/\/)?(.*)$/is.exec(value);
  if (file !== null) {
    const path = decodeURIComponent(file[2] ?? "");
    if (path === "") throw new UsageError(`"${value}" names no file (use sqlite:./path/to.db, sqlite:///absolute/path.db or sqlite::memory:)`);
    return { kind: "sqlite", path: path === ":memory:" ? path : resolve(cwd, path) };
  }
  if (scheme !== undefined) throw new UsageError(`unsupported database URL scheme "${scheme}://" (use postgres://, mysql:// or an SQLite file path)`);
  if (value.trim() === "") throw new UsageError("the database must not be empty");
  return { kind: "sqlite", path: value === ":memory:" ? value : isAbsolute(value) ? value : resolve(cwd, value) };
}

/** Which database a demo entry belongs to: an SQLite file's absolute path, or the server URL without its password. */
export function databaseKey(target: DatabaseTarget): string {
  return target.kind === "sqlite" ? target.path : redactDatabaseUrl(target.url);
}

/**
 * The folder of a PostgreSQL or MySQL database's local files (its repository shards), under
 * ./data: `<kind>-<host>-<port>-<database>-<hash>`, the hash taken of its {@link databaseKey}, so
 * two servers, two databases on one server or two users of one database never share it, while a
 * changed password still finds it.
 */
export function serverDataFolder(target: DatabaseTarget & { kind: "postgres" | "mysql" }, cwd: string): string {
  const key = databaseKey(target);
  const url = new URL(target.url);
  const readable = [target.kind, url.hostname, url.port, url.pathname.replace(/^\//, "")].filter((part) => part !== "").join("-");
  const name = `${readable.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80)}-${createHash("sha256").update(key).digest("hex").slice(0, 10)}`;
  return join(cwd, "data", name);
}

/** The URL or path to hand the store (`fromUrl`). */
export function storeLocation(target: DatabaseTarget): string {
  return target.kind === "sqlite" ? target.path : target.url;
}

/** The demo token file: next to an SQLite file, else ./data/demo-tokens.json. */
export function demoTokensFile(target: DatabaseTarget, cwd: string): string {
  return target.kind === "sqlite" && target.path !== ":memory:" ? join(dirname(target.path), "demo-tokens.json") : join(cwd, "data", "demo-tokens.json");
}

/** The repository storage shards the CLI and the demo host configure. */
export const REPOSITORY_SHARDS = ["default", "secondary"] as const;

/**
 * The CLI's and the demo's repository shards, `default` and `secondary`: folders of
 * `repositories/` next to an SQLite file, else of the server database's own folder
 * ({@link serverDataFolder}: ./data/<kind>-<host>-<port>-<database>-<hash>/repositories), so
 * databases that share a working directory never see each other's repositories. An
 * in-memory database gets a temporary folder, removed at exit: its ids start over on every run,
 * so kept repositories would collide with the next run's.
 */
export function repositoryStorages(target: DatabaseTarget, cwd: string): Record<string, { path: string }> {
  let root: string;
  if (target.kind === "sqlite" && target.path === ":memory:") {
    // Not made here: the storage makes it with the first repository (most throw-away runs make none).
    const temporary = join(tmpdir(), `forgekit-repositories-${process.pid}-${randomBytes(6).toString("hex")}`);
    process.once("exit", () => rmSync(temporary, { recursive: true, force: true }));
    root = temporary;
  } else {
    root = target.kind === "sqlite" ? join(dirname(target.path), "repositories") : join(serverDataFolder(target, cwd), "repositories");
  }
  return Object.fromEntries(REPOSITORY_SHARDS.map((name) => [name, { path: join(root, name) }]));
}

/** The target without its password or token-like query parameters, for messages. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === "sqlite") return `SQLite ${target.path}`;
  return `${target.kind === "postgres" ? "PostgreSQL" : "MySQL"} ${redactDatabaseUrl(target.url)}`;
}
