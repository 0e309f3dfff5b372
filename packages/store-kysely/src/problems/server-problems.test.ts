/**
 * PostgreSQL and MySQL / MariaDB start-up failures explained, provoked for real: a closed local
 * port, a database of a random name, a user of a random name, an unresolvable host, a server that
 * accepts connections and never answers, a schema never migrated. The servers come from
 * FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL (skipped when unset). Every message is
 * checked for the cause, the hint, and the absence of the URL's password.
 */
import { createPool } from "mysql2";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysql } from "../dialects/mysql.js";
import { postgres } from "../dialects/postgres.js";
import type { DialectConfig } from "../dialects/traits.js";
import { fromUrl } from "../from-url.js";
import { kyselyStore } from "../store.js";
import { freshMysqlDatabase, uniqueSchemaName } from "../test-databases.js";
import { closedPort, silentServer } from "../test-faults.js";
import { explainDatabaseError, problemOf, type DatabaseProblem } from "./index.js";

const PASSWORD = "pw-Secret-7731";
const postgresUrl = process.env["FORGEKIT_TEST_POSTGRES_URL"];
const mysqlUrl = process.env["FORGEKIT_TEST_MYSQL_URL"];
const random = () => Math.random().toString(36).slice(2, 10);

/** `url` with another user / password / host / port / database. */
function variant(url: string, change: { user?: string; password?: string; host?: string; port?: number; database?: string }): string {
  const next = new URL(url.replace(/^mariadb:/i, "mysql:"));
  if (change.user !== undefined) next.username = change.user;
  if (change.password !== undefined) next.password = change.password;
  if (change.host !== undefined) next.hostname = change.host;
  if (change.port !== undefined) next.port = String(change.port);
  if (change.database !== undefined) next.pathname = `/${change.database}`;
  return next.toString();
}

/** What `migrate()` rejects with, explained against `location`; checks the message leaks no password. */
async function migrateProblem(config: DialectConfig, location: string): Promise<{ problem: DatabaseProblem | undefined; message: string }> {
  const store = kyselyStore(config);
  let failure: unknown;
  try {
    await store.migrate();
  } catch (error) {
    failure = error;
  } finally {
    await store.close().catch(() => undefined);
  }
  expect(failure, "migrate should fail").toBeInstanceOf(Error);
  const message = (failure as Error).message;
  const problem = explainDatabaseError(failure, { location });
  expect(problemOf(failure), "the store's error carries its explanation").toBeDefined();
  for (const text of [message, problem?.cause ?? "", problem?.hint ?? ""]) expect(text).not.toContain(PASSWORD);
  return { problem, message };
}

const dialects = [
  { name: "PostgreSQL", url: postgresUrl, dialect: "postgres" as const },
  { name: "MySQL", url: mysqlUrl, dialect: "mysql" as const },
];

for (const { name, url, dialect } of dialects) {
  describe.skipIf(url === undefined)(`${name} problems`, () => {
    const base = url ?? "";

    it("a closed port: connection refused, 'is the server running on host:port?'", async () => {
      const port = await closedPort();
      const location = variant(base, { password: PASSWORD, port, host: "127.0.0.1" });
      const { problem, message } = await migrateProblem(fromUrl(location), location);
      expect(problem?.kind).toBe("connection_refused");
      expect(problem?.cause).toContain(`nothing is listening on 127.0.0.1:${port}`);
      expect(problem?.cause).toContain(":***@");
      expect(problem?.hint).toContain(`is the ${name} server running on 127.0.0.1:${port}?`);
      expect(message).toContain(`127.0.0.1:${port}`);
      expect(message).toContain("hint: is the");
    });

    it("a database that does not exist: the command that creates it", async () => {
      const database = `forgekit_missing_${random()}`;
      const location = variant(base, { database });
      const { problem, message } = await migrateProblem(fromUrl(location), location);
      expect(problem?.kind).toBe("database_missing");
      expect(problem?.cause).toContain(`database "${database}" does not exist`);
      expect(problem?.hint).toContain(dialect === "postgres" ? `createdb -h ` : `CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
      expect(problem?.hint).toContain(database);
      expect(problem?.hint).toContain("`forgekit migrate`");
      expect(message).toContain(dialect === "postgres" ? "createdb" : "CREATE DATABASE");
    });

    it("a user that does not exist: the login is refused, with how to create the user", async () => {
      const user = `nouser_${random()}`;
      const location = variant(base, { user, password: PASSWORD });
      const { problem } = await migrateProblem(fromUrl(location), location);
      expect(problem?.kind).toBe("access_denied");
      expect(problem?.cause).toContain(`refused the login of user "${user}"`);
      expect(problem?.hint).toContain("check the user name and password");
      expect(problem?.hint).toContain(dialect === "postgres" ? `createuser` : `CREATE USER '${user}'`);
    });

    it("an unresolvable host: 'unknown host', check the host name", async () => {
      const location = variant(base, { host: "nonexistent.invalid", password: PASSWORD });
      const { problem } = await migrateProblem(fromUrl(location), location);
      expect(problem?.kind).toBe("host_not_found");
      expect(problem?.cause).toContain('"nonexistent.invalid"');
      expect(problem?.hint).toContain("check the host name in the database URL");
    });

    describe("a server that never answers", () => {
      let silent: Awaited<ReturnType<typeof silentServer>>;
      beforeAll(async () => {
        silent = await silentServer();
      });
      afterAll(() => silent.close());

      it("times out with 'is the server up and reachable?'", async () => {
        const location = variant(base, { host: "127.0.0.1", port: silent.port, password: PASSWORD });
        // A caller-owned pool with a short connect timeout keeps the test fast on either driver.
        const config =
          dialect === "postgres"
            ? postgres(new pg.Pool({ connectionString: location, connectionTimeoutMillis: 300 }))
            : mysql(createPool({ uri: location, connectTimeout: 300, dateStrings: true, timezone: "Z" }));
        const { problem } = await migrateProblem(config, location);
        expect(problem?.kind).toBe("timeout");
        expect(problem?.cause).toContain(`timed out connecting to the ${name} server at 127.0.0.1:${silent.port}`);
        expect(problem?.hint).toContain("up and reachable");
      });
    });

    it("a user without the privilege to create tables: how to grant it", async () => {
      const user = `noperm_${random()}`;
      let location: string;
      let cleanup: () => Promise<void>;
      if (dialect === "postgres") {
        // PostgreSQL 15+: only the owner may create in schema public.
        const admin = new pg.Client({ connectionString: base });
        await admin.connect();
        await admin.query(`create role "${user}" login password '${PASSWORD}'`);
        location = variant(base, { user, password: PASSWORD });
        cleanup = async () => {
          await admin.query(`drop role if exists "${user}"`);
          await admin.end();
        };
      } else {
        const fresh = await freshMysqlDatabase(base);
        const admin = createPool({ uri: base.replace(/^mariadb:/i, "mysql:"), connectionLimit: 1 }).promise();
        const database = new URL(fresh.url).pathname.slice(1);
        await admin.query(`create user '${user}'@'%' identified by '${PASSWORD}'`);
        await admin.query(`grant select on \`${database}\`.* to '${user}'@'%'`);
        location = variant(fresh.url, { user, password: PASSWORD });
        cleanup = async () => {
          await admin.query(`drop user if exists '${user}'@'%'`);
          await admin.end();
          await fresh.drop();
        };
      }
      try {
        const { problem, message } = await migrateProblem(fromUrl(location), location);
        expect(problem?.kind).toBe("permission_denied");
        expect(problem?.cause).toContain(`user "${user}" lacks a privilege on the ${name} server`);
        expect(problem?.hint).toContain(dialect === "postgres" ? `GRANT USAGE, CREATE ON SCHEMA public TO "${user}"` : `GRANT ALL ON forgekit_test_`);
        expect(message).toContain("hint: grant it");
      } finally {
        await cleanup();
      }
    });

    it("a schema never migrated: a query says to run `forgekit migrate`", async () => {
      let location = base;
      let config: DialectConfig;
      let cleanup: () => Promise<void>;
      if (dialect === "postgres") {
        // A schema that does not exist yet: forgekit's tables are not found in it.
        const pool = new pg.Pool({ connectionString: base, max: 2 });
        config = postgres(pool, { schema: uniqueSchemaName() });
        cleanup = () => pool.end();
      } else {
        const fresh = await freshMysqlDatabase(base);
        location = fresh.url;
        config = fromUrl(fresh.url);
        cleanup = fresh.drop;
      }
      const store = kyselyStore(config);
      const error = await store.users.findById(1).then(
        () => undefined,
        (e: unknown) => e,
      );
      await store.close();
      await cleanup();
      const problem = explainDatabaseError(error, { location });
      expect(problem?.kind).toBe("not_migrated");
      expect(problem?.cause).toContain("forgekit_users");
      expect(problem?.hint).toContain("run `forgekit migrate`");
    });
  });
}
