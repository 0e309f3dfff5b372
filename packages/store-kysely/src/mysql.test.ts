/**
 * Store conformance and MySQL / MariaDB specifics when FORGEKIT_TEST_MYSQL_URL is set; without it the
 * same tests are collected as skipped, so the run's summary counts them.
 */
import { runStoreConformance } from "@forgekit/core/testing";
import { createPool } from "mysql2";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgekitMysqlDialect } from "./dialects/mysql-introspector.js";
import { FORGEKIT_TABLES, kyselyStore, mysql } from "./index.js";
import { freshMysqlDatabase, mysqlDatabase, type TestDatabase } from "./test-databases.js";

const url = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
const configured = url !== "";
if (!configured) console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — MySQL / MariaDB tests skipped");

describe.skipIf(!configured)("MySQL / MariaDB", () => {
  let database: TestDatabase;
  let started = 0;
  beforeAll(async () => {
    started = performance.now();
    database = await mysqlDatabase(url);
  });
  afterAll(async () => {
    await database.dispose();
    console.log(`store-kysely: MySQL / MariaDB conformance took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  runStoreConformance("kyselyStore(mysql)", () => database.makeStore());
});

describe.skipIf(!configured)("MySQL / MariaDB specifics", () => {
  it("migrate - two processes migrating one fresh database at once both succeed", async () => {
    const fresh = await freshMysqlDatabase(url);
    const a = kyselyStore(mysql(fresh.url));
    const b = kyselyStore(mysql(fresh.url));
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      expect(await a.users.create({ username: "u", name: "U" }, new Date())).not.toBeNull();
      expect(await b.users.findByUsername("U")).not.toBeNull();
      const tables = await new Promise<string[]>((resolve, reject) => {
        const pool = createPool({ uri: fresh.url, connectionLimit: 1 });
        pool.query("show tables", (error, rows) => {
          pool.end(() => undefined);
          if (error) reject(error);
          else resolve((rows as Record<string, string>[]).map((row) => Object.values(row)[0] ?? ""));
        });
      });
      expect(tables).toEqual(expect.arrayContaining([...FORGEKIT_TABLES, "forgekit_migrations", "forgekit_migrations_lock"]));
    } finally {
      await a.close();
      await b.close();
      await fresh.drop();
    }
  });

  it("introspection - lists the current database's tables only, with the migrator's own tables when asked", async () => {
    const fresh = await freshMysqlDatabase(url);
    const store = kyselyStore(mysql(fresh.url));
    const db = new Kysely<unknown>({ dialect: new ForgekitMysqlDialect({ pool: createPool({ uri: fresh.url, connectionLimit: 1 }) }) });
    try {
      await store.migrate();
      const names = (await db.introspection.getTables()).map((table) => table.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(names).toEqual(expect.arrayContaining([...FORGEKIT_TABLES, "forgekit_migrations", "forgekit_migrations_lock"]));
      // Every table named is one of this database's (another database's tables never appear).
      expect(new Set(names).size).toBe(names.length);
      const own = await sql<Record<string, string>>`select table_name as name from information_schema.tables where table_schema = database()`.execute(db);
      expect(names.sort()).toEqual(own.rows.map((row) => row["name"] ?? "").sort());
      const withInternal = await db.introspection.getTables({ withInternalKyselyTables: true });
      expect(withInternal.every((table) => table.schema === fresh.url.split("/").pop()?.split("?")[0] && !table.isView)).toBe(true);
    } finally {
      await db.destroy();
      await store.close();
      await fresh.drop();
    }
  });

  it("mysql(pool) - refuses a pool that would read timestamps in local time", () => {
    const pool = createPool({ uri: url.replace(/^mariadb:/i, "mysql:"), timezone: "local" });
    try {
      expect(() => mysql(pool)).toThrow(/dateStrings|timezone/);
      const utc = createPool({ uri: url.replace(/^mariadb:/i, "mysql:"), timezone: "Z" });
      expect(() => mysql(utc)).not.toThrow();
      utc.end(() => undefined);
    } finally {
      pool.end(() => undefined);
    }
  });

  it("timestamps - keep millisecond precision and read back in UTC whatever the session time zone", async () => {
    const fresh = await freshMysqlDatabase(url);
    const store = kyselyStore(mysql(fresh.url));
    try {
      await store.migrate();
      const at = new Date("2026-07-04T23:59:59.987Z");
      const user = await store.users.create({ username: "tz", name: "TZ" }, at);
      expect((await store.users.findById(user!.id))?.createdAt).toEqual(at);
    } finally {
      await store.close();
      await fresh.drop();
    }
  });
});
