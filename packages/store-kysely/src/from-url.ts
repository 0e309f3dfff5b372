/** `fromUrl`: one DATABASE_URL-style string to a dialect configuration. */
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite, type SqliteOptions } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";

/** Options of {@link fromUrl}, per dialect (used only when the URL selects that dialect). */
export interface FromUrlOptions {
  /** For an SQLite path, e.g. `{ fileMustExist: true }` to never create the file. */
  sqlite?: SqliteOptions;
}

/**
 * `postgres://` or `postgresql://` → PostgreSQL; `mysql://` or `mariadb://` → MySQL / MariaDB;
 * anything else is a SQLite file path (`file:` prefix allowed), `:memory:` included.
 */
export function fromUrl(databaseUrl: string, options: FromUrlOptions = {}): DialectConfig {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return postgres(databaseUrl);
  if (scheme === "mysql" || scheme === "mariadb") return mysql(databaseUrl);
  if (scheme !== undefined && scheme !== "file") throw new Error(`fromUrl: unsupported database URL scheme "${scheme}:"`);
  return sqlite(databaseUrl.replace(/^file:(\/\/)?/i, ""), options.sqlite);
}
