/**
 * PostgreSQL (pg) and MySQL / MariaDB (mysql2) failures at connection and start-up, by the codes
 * the drivers and Node's network stack put on their errors: what went wrong and what to do.
 */
import type { DatabaseProblem, DriverError } from "./kinds.js";
import { scrub, type DatabaseLocation } from "./location.js";

const serverName = (location: DatabaseLocation): string =>
  location.dialect === "postgres" ? "PostgreSQL" : location.dialect === "mysql" ? "MySQL" : "database";

/** `host:port` of the URL, else the address the driver tried, else undefined (the store's own migrate knows no URL). */
function endpoint(location: DatabaseLocation, error: DriverError): string | undefined {
  const host = location.host ?? error.address ?? error.hostname;
  const port = location.port ?? error.port;
  if (host === undefined) return undefined;
  const shown = host.includes(":") ? `[${host}]` : host;
  return port === undefined ? shown : `${shown}:${port}`;
}

/** ` (postgres://user:***@host/db)` when the URL is known. */
const at = (location: DatabaseLocation): string => (location.display === undefined ? "" : ` (${location.display})`);

/** Quotes a shell word only when it needs it. */
const shellWord = (word: string): string => (/^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** A MySQL identifier, back-quoted only when it needs it. */
const mysqlIdentifier = (name: string): string => (/^\w+$/.test(name) ? name : `\`${name.replaceAll("`", "``")}\``);

const NETWORK_UNREACHABLE = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "EADDRNOTAVAIL"]);
const HOST_NOT_FOUND = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL", "EAI_NODATA"]);
const CONNECTION_LOST = new Set(["ECONNRESET", "EPIPE", "PROTOCOL_CONNECTION_LOST"]);

function isTimeout(error: DriverError): boolean {
  return (
    error.code === "ETIMEDOUT" ||
    error.code === "ESOCKETTIMEDOUT" ||
    // pg: `connectionTimeoutMillis` ("timeout expired"), pg-pool ("… due to connection timeout").
    /^timeout expired$|connection timeout/i.test(error.message)
  );
}

/** The database name the driver reported (`database "x" does not exist`, `Unknown database 'x'`). */
function reportedDatabase(error: DriverError, location: DatabaseLocation): string | undefined {
  return /database ["'](.+)["']/i.exec(error.message)?.[1] ?? location.database;
}

/** The user the driver reported (`for user "x"`, `role "x"`, `user 'x'@'host'`). */
function reportedUser(error: DriverError, location: DatabaseLocation): string | undefined {
  return /(?:user|role) ["']([^"']+)["']/i.exec(error.message)?.[1] ?? location.user;
}

function createDatabaseHint(location: DatabaseLocation, name: string): string {
  if (location.dialect === "mysql") {
    const client = ["mysql", ...(location.host ? ["-h", location.host] : []), ...(location.port ? ["-P", String(location.port)] : []), "-u", location.user ?? "root", "-p"];
    return `create it: \`CREATE DATABASE ${mysqlIdentifier(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\` (e.g. in \`${client.map(shellWord).join(" ")}\`), then run \`forgekit migrate\``;
  }
  const args = [...(location.host ? ["-h", location.host] : []), ...(location.port ? ["-p", String(location.port)] : []), ...(location.user ? ["-U", location.user] : []), name];
  return `create it with \`createdb ${args.map(shellWord).join(" ")}\`, then run \`forgekit migrate\``;
}

function accessHint(location: DatabaseLocation, user: string | undefined): string {
  const who = user ?? "<user>";
  if (location.dialect === "mysql") {
    const db = location.database === undefined ? "<database>" : mysqlIdentifier(location.database);
    return `check the user name and password in the database URL; to create the user: \`CREATE USER '${who}'@'%' IDENTIFIED BY '…'; GRANT ALL ON ${db}.* TO '${who}'@'%';\``;
  }
  const args = [...(location.host ? ["-h", location.host] : []), ...(location.port ? ["-p", String(location.port)] : []), "--pwprompt", who];
  return `check the user name and password in the database URL; to create the user: \`createuser ${args.map(shellWord).join(" ")}\` (and allow it in pg_hba.conf)`;
}

/**
 * A store-unavailable error (core's `storeUnavailable`) whose cause, if any, none of the rules
 * explains: a connection deadline passed, the pool was exhausted, a lock was held too long.
 */
export function unavailableProblem(message: string, location: DatabaseLocation): DatabaseProblem {
  const server = serverName(location);
  if (location.dialect !== "sqlite" && /no connection within|connect(ion)? timeout/i.test(message)) {
    const where = endpoint(location, driverFields(message));
    return {
      kind: "timeout",
      cause: `timed out connecting to ${where === undefined ? `the ${server} server` : `the ${server} server at ${where}`}${at(location)}: ${scrub(message, location)}`,
      hint: `is the server at ${where ?? "the host and port of the database URL"} up and reachable from here? A firewall that drops packets, a wrong host or a wrong port look like this`,
    };
  }
  return {
    kind: "unavailable",
    cause: `${location.dialect === "sqlite" ? "the SQLite database" : `the ${server} server`} is unavailable: ${scrub(message, location)}`,
    hint:
      location.dialect === "sqlite"
        ? "another process holds the database's lock (a long write or a stuck tool): retry, or stop that process"
        : "check that the server is up and not overloaded (connections, disk, locks), then retry",
  };
}

const driverFields = (message: string): DriverError => ({ code: undefined, errno: undefined, message, address: undefined, port: undefined, hostname: undefined, path: undefined, syscall: undefined });

/** The problem a network or server error describes, or undefined when it is none of these. */
export function serverProblem(error: DriverError, location: DatabaseLocation): DatabaseProblem | undefined {
  const code = error.code;
  const server = serverName(location);
  const where = endpoint(location, error);
  const onServer = where === undefined ? `the ${server} server` : `the ${server} server at ${where}`;
  const there = where ?? "the host and port of the database URL";
  if (code === "ECONNREFUSED") {
    return {
      kind: "connection_refused",
      cause: `connection refused: nothing is listening on ${there}${at(location)}`,
      hint: `is the ${server} server running on ${there}? Start it, or correct the host and port in the database URL`,
    };
  }
  if (code !== undefined && HOST_NOT_FOUND.has(code)) {
    const host = location.host ?? error.hostname ?? "the database host";
    return code === "EAI_AGAIN"
      ? { kind: "host_not_found", cause: `cannot resolve the host name "${host}": DNS did not answer (EAI_AGAIN)${at(location)}`, hint: "check the network and DNS of this machine, then retry; or correct the host in the database URL" }
      : { kind: "host_not_found", cause: `unknown host "${host}" (${code})${at(location)}`, hint: `check the host name in the database URL: "${host}" is not known to DNS or /etc/hosts` };
  }
  if (code !== undefined && NETWORK_UNREACHABLE.has(code)) {
    return { kind: "unreachable", cause: `${there} cannot be reached from this machine (${code})${at(location)}`, hint: `check the host in the database URL and the network route to it (VPN, firewall)` };
  }
  if (isTimeout(error)) {
    return {
      kind: "timeout",
      cause: `timed out connecting to ${onServer}${at(location)}`,
      hint: `is the server at ${there} up and reachable from here? A firewall that drops packets, a wrong host or a wrong port look like this`,
    };
  }
  if ((code !== undefined && CONNECTION_LOST.has(code)) || /connection terminated unexpectedly|server closed the connection/i.test(error.message)) {
    return {
      kind: "connection_lost",
      cause: `${onServer} closed the connection while it was being set up${at(location)}`,
      hint: `is ${there} a ${server} server (right port)? Is it shutting down or out of connections? Check its log`,
    };
  }
  if (code === "3D000" || code === "ER_BAD_DB_ERROR" || error.errno === 1049) {
    const name = reportedDatabase(error, location) ?? "<database>";
    return { kind: "database_missing", cause: `database "${name}" does not exist on ${onServer}${at(location)}`, hint: createDatabaseHint(location, name) };
  }
  // MySQL 1045 bad user or password, 1044 no access to the database, 1698 (MariaDB) no such user.
  const mysqlDenied = code === "ER_ACCESS_DENIED_ERROR" || code === "ER_DBACCESS_DENIED_ERROR" || code === "ER_ACCESS_DENIED_NO_PASSWORD_ERROR" || [1044, 1045, 1698].includes(error.errno ?? 0);
  if (code === "28P01" || code === "28000" || mysqlDenied) {
    const user = reportedUser(error, location);
    return {
      kind: "access_denied",
      cause: `${onServer} refused the login${user === undefined ? "" : ` of user "${user}"`}: ${scrub(error.message, location)}${at(location)}`,
      hint: accessHint(location, user),
    };
  }
  // PostgreSQL 42501 insufficient_privilege (15+: no CREATE on schema public for other users);
  // MySQL 1142 table access denied, 1227 a privilege the statement needs.
  if (code === "42501" || code === "ER_TABLEACCESS_DENIED_ERROR" || code === "ER_SPECIFIC_ACCESS_DENIED_ERROR" || [1142, 1227].includes(error.errno ?? 0)) {
    const user = location.user ?? reportedUser(error, location);
    return {
      kind: "permission_denied",
      cause: `${user === undefined ? "the database user" : `user "${user}"`} lacks a privilege on ${onServer}: ${scrub(error.message, location)}${at(location)}`,
      hint: grantHint(location, error, user ?? "<user>"),
    };
  }
  return undefined;
}

function grantHint(location: DatabaseLocation, error: DriverError, user: string): string {
  if (location.dialect === "mysql") {
    const db = location.database === undefined ? "<database>" : mysqlIdentifier(location.database);
    return `grant it the database as an administrator: \`GRANT ALL ON ${db}.* TO '${user}'@'%';\``;
  }
  const schema = /for schema (\S+)/i.exec(error.message)?.[1] ?? "public";
  const database = location.database ?? "<database>";
  return `grant it as an administrator: \`GRANT USAGE, CREATE ON SCHEMA ${schema} TO "${user}";\` (or make it the owner: \`ALTER DATABASE "${database}" OWNER TO "${user}";\`), then run \`forgekit migrate\``;
}
