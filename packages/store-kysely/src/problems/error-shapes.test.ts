/**
 * The rules on driver error shapes the local servers cannot produce (PostgreSQL here trusts every
 * login, DNS answers at once, no route is down): the fields below are those pg, mysql2,
 * better-sqlite3 and Node put on their errors. The real provocations are in
 * server-problems.test.ts and sqlite-problems.test.ts.
 */
import { storeUnavailable } from "@forgekit/core";
import { describe, expect, it } from "vitest";
import { explainDatabaseError } from "./index.js";

const fail = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
const PG = "postgres://app:Pw-777-secret@db.internal:5433/forge";
const MY = "mysql://app:Pw-777-secret@db.internal:3307/forge";

describe("error shapes", () => {
  const cases: { name: string; error: unknown; location?: string; dialect?: "postgres" | "mysql" | "sqlite"; kind: string; cause: string; hint: string }[] = [
    {
      name: "PostgreSQL 28P01 wrong password",
      error: fail('password authentication failed for user "app"', { code: "28P01", severity: "FATAL" }),
      location: PG,
      kind: "access_denied",
      cause: 'the PostgreSQL server at db.internal:5433 refused the login of user "app": password authentication failed',
      hint: "`createuser -h db.internal -p 5433 --pwprompt app`",
    },
    {
      name: "MySQL 1044 no access to the database",
      error: fail("Access denied for user 'app'@'%' to database 'forge'", { code: "ER_DBACCESS_DENIED_ERROR", errno: 1044, sqlState: "42000" }),
      location: MY,
      kind: "access_denied",
      cause: 'refused the login of user "app"',
      hint: "GRANT ALL ON forge.* TO 'app'@'%'",
    },
    {
      name: "EAI_AGAIN: DNS not answering",
      error: fail("getaddrinfo EAI_AGAIN db.internal", { code: "EAI_AGAIN", hostname: "db.internal", syscall: "getaddrinfo" }),
      location: PG,
      kind: "host_not_found",
      cause: 'cannot resolve the host name "db.internal": DNS did not answer (EAI_AGAIN)',
      hint: "check the network and DNS of this machine, then retry",
    },
    {
      name: "EHOSTUNREACH: no route",
      error: fail("connect EHOSTUNREACH 10.0.0.9:5433", { code: "EHOSTUNREACH", address: "10.0.0.9", port: 5433, syscall: "connect" }),
      location: PG,
      kind: "unreachable",
      cause: "db.internal:5433 cannot be reached from this machine (EHOSTUNREACH)",
      hint: "network route",
    },
    {
      name: "ETIMEDOUT from the OS, without a URL (the store's own migrate)",
      error: fail("connect ETIMEDOUT 10.0.0.9:3307", { code: "ETIMEDOUT", address: "10.0.0.9", port: 3307, syscall: "connect" }),
      dialect: "mysql",
      kind: "timeout",
      cause: "timed out connecting to the MySQL server at 10.0.0.9:3307",
      hint: "up and reachable",
    },
    {
      name: "happy eyeballs: an AggregateError of refused addresses",
      error: Object.assign(new AggregateError([fail("connect ECONNREFUSED ::1:5433", { code: "ECONNREFUSED", address: "::1", port: 5433 })], ""), { code: "ECONNREFUSED" }),
      dialect: "postgres",
      kind: "connection_refused",
      cause: "nothing is listening on [::1]:5433",
      hint: "is the PostgreSQL server running on [::1]:5433?",
    },
    {
      name: "pg: the server hung up during start-up (not a PostgreSQL port)",
      error: fail("Connection terminated unexpectedly", {}),
      location: PG,
      kind: "connection_lost",
      cause: "the PostgreSQL server at db.internal:5433 closed the connection while it was being set up",
      hint: "is db.internal:5433 a PostgreSQL server (right port)?",
    },
    {
      name: "a store-unavailable wrapper with the driver's error inside",
      error: storeUnavailable("PostgreSQL unavailable: cannot connect (ECONNREFUSED)", { cause: fail("connect ECONNREFUSED 127.0.0.1:5433", { code: "ECONNREFUSED" }) }),
      location: PG,
      kind: "connection_refused",
      cause: "nothing is listening on db.internal:5433 (postgres://app:***@db.internal:5433/forge)",
      hint: "is the PostgreSQL server running on db.internal:5433?",
    },
    {
      name: "a store-unavailable deadline with no driver error",
      error: storeUnavailable("MySQL unavailable: no connection within 5000 ms"),
      location: MY,
      kind: "timeout",
      cause: "timed out connecting to the MySQL server at db.internal:3307 (mysql://app:***@db.internal:3307/forge): MySQL unavailable: no connection within 5000 ms",
      hint: "up and reachable",
    },
    {
      name: "an SQLite lock held too long",
      error: storeUnavailable("SQLite database is locked by another connection"),
      location: "/srv/forgekit.db",
      kind: "unavailable",
      cause: "the SQLite database is unavailable: SQLite database is locked by another connection",
      hint: "another process holds the database's lock",
    },
    {
      name: "SQLITE_CORRUPT",
      error: fail("database disk image is malformed", { code: "SQLITE_CORRUPT" }),
      location: "/srv/forgekit.db",
      kind: "not_a_database",
      cause: "/srv/forgekit.db is not an SQLite database or is corrupt (SQLITE_CORRUPT: database disk image is malformed)",
      hint: "restore it from a backup",
    },
    {
      name: "MySQL 1146 with no URL",
      error: fail("Table 'forge.forgekit_users' doesn't exist", { code: "ER_NO_SUCH_TABLE", errno: 1146, sqlState: "42S02" }),
      dialect: "mysql",
      kind: "not_migrated",
      cause: "the database has not been migrated: Table 'forge.forgekit_users' doesn't exist",
      hint: "run `forgekit migrate`",
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const problem = explainDatabaseError(c.error, { location: c.location, dialect: c.dialect });
      expect(problem?.kind).toBe(c.kind);
      expect(problem?.cause).toContain(c.cause);
      expect(problem?.hint).toContain(c.hint);
      expect(JSON.stringify(problem)).not.toContain("Pw-777-secret");
    });
  }

  it("a statement error that is none of these is left alone", () => {
    expect(explainDatabaseError(fail('duplicate key value violates unique constraint "x"', { code: "23505" }), { location: PG })).toBeUndefined();
    expect(explainDatabaseError(fail("Duplicate entry", { code: "ER_DUP_ENTRY", errno: 1062 }), { location: MY })).toBeUndefined();
  });
});
