/** `fromUrl`: one DATABASE_URL-style string to a dialect configuration. */
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";

/**
 * `postgres://` or `postgresql://` → PostgreSQL; `mysql://` or `mariadb://` → MySQL / MariaDB;
 * anything else is a SQLite file path (`file:` prefix allowed), `:memory:` included.
 */
export function fromUrl(databaseUrl: string): DialectConfig {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === "postgres" || scheme === "postgresql") return postgres(databaseUrl);
  if (scheme === "mysql" || scheme === "mariadb") return mysql(databaseUrl);
  if (scheme !== undefined && scheme !== "file") throw new Error(`fromUrl: unsupported database URL scheme "${scheme}:"`);
  return sqlite(databaseUrl.replace(/^file:(\/\/)?/i, ""));
}
