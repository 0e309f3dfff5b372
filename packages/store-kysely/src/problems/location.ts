/**
 * Where a database is, as messages may show it: the dialect, host, port, database and user parsed
 * from a DATABASE_URL-style string (or an SQLite path), with every secret masked.
 */
import { userInfo } from "node:os";
import type { DialectName } from "../dialects/traits.js";

/** What a problem message may say about the database it concerns. */
export interface DatabaseLocation {
  dialect: DialectName | undefined;
  /** The URL with its password and token-like query parameters masked, or the SQLite path. */
  display: string | undefined;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  /** The SQLite file path (absent for `:memory:` and server dialects). */
  path?: string;
  /** Secrets of the URL (password, token-like parameters), to be scrubbed from any text shown. */
  secrets: string[];
}

/** Query parameters that carry credentials (`password=`, `sslpassword=`, `token=`, `api_key=`, …). */
const SECRET_PARAMETER = /pass|pwd|token|secret|key|auth|credential|signature|sig$/i;
const MASK = "***";

/** Replaces `user:password@` and token-like query values in any URL-looking text. */
function maskUrlText(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)[^\s@/]*@/gi, `$1${MASK}@`)
    .replace(/([?&;]([^=&\s]+)=)([^&\s]*)/g, (whole, prefix: string, name: string) => (SECRET_PARAMETER.test(name) ? `${prefix}${MASK}` : whole));
}

/**
 * `url` with its password and every token-like query parameter (`password`, `sslpassword`, `token`,
 * `secret`, `*key`, …) replaced by `***`, for messages and logs. Text that is not a URL is masked
 * by pattern, so a malformed URL never leaks its password either.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return maskUrlText(url);
  }
  if (parsed.password !== "") parsed.password = MASK;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, MASK);
  }
  // URLSearchParams re-encodes `***` as `%2A%2A%2A`; show it as typed.
  return parsed.toString().replaceAll("%2A%2A%2A", MASK);
}

function schemeDialect(scheme: string | undefined): DialectName | undefined {
  if (scheme === "postgres" || scheme === "postgresql") return "postgres";
  if (scheme === "mysql" || scheme === "mariadb") return "mysql";
  return undefined;
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** Parses `location` (a URL or an SQLite path); `dialect` names it when the location is unknown. */
export function databaseLocation(location: string | undefined, dialect?: DialectName): DatabaseLocation {
  if (location === undefined) return { dialect, display: undefined, secrets: [] };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
  const server = schemeDialect(scheme);
  if (server === undefined) {
    const path = location.replace(/^file:(\/\/)?/i, "");
    return { dialect: dialect ?? "sqlite", display: path, ...(path === ":memory:" ? {} : { path }), secrets: [] };
  }
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return { dialect: server, display: maskUrlText(location), secrets: [] };
  }
  const secrets = [url.password, decode(url.password), ...[...url.searchParams].filter(([name]) => SECRET_PARAMETER.test(name)).map(([, value]) => value)].filter(
    (secret) => secret.length >= 3,
  );
  const database = decode(url.pathname.replace(/^\//, ""));
  const user = decode(url.username);
  return {
    dialect: server,
    display: redactDatabaseUrl(location),
    host: url.hostname === "" ? "localhost" : url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port === "" ? (server === "postgres" ? 5432 : 3306) : Number(url.port),
    // The drivers' own defaults: pg uses the OS user for both, mysql2 connects to no database.
    ...(database !== "" ? { database } : server === "postgres" ? { database: user || safeOsUser() } : {}),
    user: user || (server === "postgres" ? safeOsUser() : "root"),
    secrets,
  };
}

function safeOsUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "postgres";
  }
}

/** `text` with the location's secrets and any URL password in it replaced by `***`. */
export function scrub(text: string, location: DatabaseLocation): string {
  let clean = maskUrlText(text);
  for (const secret of location.secrets) clean = clean.replaceAll(secret, MASK);
  return clean;
}
