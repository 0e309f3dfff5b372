/** `fromUrl`: one DATABASE_URL-style string to a dialect configuration. */
import { mysql, type MysqlOptions } from "./dialects/mysql.js";
import { postgres, type PostgresOptions } from "./dialects/postgres.js";
import { sqlite, type SqliteOptions } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";

/** Options of {@link fromUrl}, per dialect (used only when the URL selects that dialect). */
export interface FromUrlOptions {
  /** For an SQLite path, e.g. `{ fileMustExist: true }` to never create the file. */
  sqlite?: SqliteOptions;
  /** For a PostgreSQL URL: pool size and limits, e.g. `{ statementTimeoutMs: 30_000 }`. */
  postgres?: PostgresOptions;
  /** For a MySQL / MariaDB URL: pool size and limits. */
  mysql?: MysqlOptions;
}

/**
 * `postgres://` or `postgresql://` → PostgreSQL; `mysql://` or `mariadb://` → MySQL / MariaDB;
 * anything else is a SQLite file path (`file:` prefix allowed), `:memory:` included.
 */
export function fromUrl(databaseUrl: string, options: FromUrlOptions = {}): DialectConfig {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return postgres(databaseUrl, options.postgres);
  if (scheme === "mysql" || scheme === "mariadb") return mysql(databaseUrl, options.mysql);
  if (scheme !== undefined && scheme !== "file") throw new Error(`fromUrl: unsupported database URL scheme "${scheme}:"`);
  return sqlite(databaseUrl.replace(/^file:(\/\/)?/i, ""), options.sqlite);
}
