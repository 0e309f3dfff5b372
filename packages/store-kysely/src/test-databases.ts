/**
 * Test-only helpers: the database matrix of store-kysely's tests (DESIGN §8). SQLite always; PostgreSQL
 * with FORGEKIT_TEST_POSTGRES_URL and MySQL / MariaDB with FORGEKIT_TEST_MYSQL_URL, each run in a
 * fresh schema or database that is dropped afterwards, so runs are repeatable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@forgekit/core";
import { Kysely } from "kysely";
import { createPool } from "mysql2";
import pg from "pg";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";
import { FORGEKIT_TABLES, type Database } from "./schema.js";
import { kyselyStore } from "./store.js";

/** One database under test: a factory of empty migrated stores, and its teardown. */
export interface TestDatabase {
  /** A migrated store with every forgekit table empty. */
  makeStore(): Promise<Store>;
  dispose(): Promise<void>;
}

const runId = () => `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;

/** A fresh SQLite file per store, in a temporary directory removed at the end. */
export function sqliteDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-sqlite-"));
  let files = 0;
  return {
    async makeStore() {
      files += 1;
      const store = kyselyStore(sqlite(join(dir, `db-${files}.sqlite`)));
      await store.migrate();
      return store;
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

/** Stores sharing one migrated schema, emptied before each hand-out. */
function sharedSchema(config: () => DialectConfig, drop: () => Promise<void>): TestDatabase {
  let migrated = false;
  return {
    async makeStore() {
      const store = kyselyStore(config());
      if (!migrated) {
        await store.migrate();
        migrated = true;
      }
      const cleaner = new Kysely<Database>({ dialect: config().dialect });
      const schema = config().schema;
      const db = schema === undefined ? cleaner : cleaner.withSchema(schema);
      // MySQL checks the self-referencing parent key row by row: detach subgroups first.
      await db.updateTable("forgekit_namespaces").set({ parent_id: null }).execute();
      for (const table of FORGEKIT_TABLES) await db.deleteFrom(table).execute();
      await cleaner.destroy();
      return store;
    },
    dispose: drop,
  };
}

/** A schema name no other test run uses. */
export function uniqueSchemaName(): string {
  return `forgekit_test_${runId()}`;
}

/** Drops `schema` (cascade) on `url` through a one-connection pool that is closed right after. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await admin.end();
  }
}

/** A unique PostgreSQL schema on `url`, dropped (cascade) at the end. */
export function postgresDatabase(url: string): TestDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 12 });
  const schema = uniqueSchemaName();
  return sharedSchema(
    () => postgres(pool, { schema }),
    async () => {
      await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    },
  );
}

/** Runs `statement` on a one-connection pool to `url` that is closed right after. */
async function adminQuery(url: string, statement: string): Promise<void> {
  const admin = createPool({ uri: url.replace(/^mariadb:/i, "mysql:"), connectionLimit: 1 }).promise();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A new, empty MySQL / MariaDB database next to the one in `url`: its URL, and a function dropping it.
 * The administrative connection is opened for the create and again for the drop, never held in
 * between: a test file that keeps many databases until its end must not hold a connection for each
 * (MariaDB's default `max_connections` is 151).
 */
export async function freshMysqlDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `forgekit_test_${runId()}`;
  await adminQuery(url, `create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`);
  const target = new URL(url.replace(/^mariadb:/i, "mysql:"));
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: () => adminQuery(url, `drop database if exists \`${name}\``),
  };
}

/** A unique MySQL / MariaDB database next to the one in `url`, dropped at the end. */
export async function mysqlDatabase(url: string): Promise<TestDatabase> {
  const fresh = await freshMysqlDatabase(url);
  const pool = createPool({ uri: fresh.url, dateStrings: true, timezone: "Z", connectionLimit: 12 });
  return sharedSchema(
    () => mysql(pool),
    async () => {
      await new Promise<void>((resolve, reject) => pool.end((error) => (error ? reject(error) : resolve())));
      await fresh.drop();
    },
  );
}

/** A dialect configuration on a fresh, empty database (schema) and its teardown. */
export interface OpenedDialect {
  config: DialectConfig;
  close(): Promise<void>;
}

/**
 * The dialects under test as named openers of fresh, empty databases: SQLite always (a file under
 * a temporary folder named from `prefix`), PostgreSQL (own schema, created) and MySQL (own database)
 * when their URLs are set.
 */
export function dialectMatrix(prefix: string): [string, () => Promise<OpenedDialect>][] {
  const openers: [string, () => Promise<OpenedDialect>][] = [
    [
      "SQLite",
      () => {
        const dir = mkdtempSync(join(tmpdir(), prefix));
        return Promise.resolve({ config: sqlite(join(dir, "forgekit.sqlite")), close: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) });
      },
    ],
  ];
  const pgUrl = process.env["FORGEKIT_TEST_POSTGRES_URL"];
  const myUrl = process.env["FORGEKIT_TEST_MYSQL_URL"];
  if (pgUrl) {
    openers.push([
      "PostgreSQL",
      async () => {
        const pool = new pg.Pool({ connectionString: pgUrl, max: 4 });
        const schema = uniqueSchemaName();
        await pool.query(`create schema if not exists "${schema}"`);
        return {
          config: postgres(pool, { schema }),
          async close() {
            await pool.query(`drop schema if exists "${schema}" cascade`);
            await pool.end();
          },
        };
      },
    ]);
  }
  if (myUrl) {
    openers.push([
      "MySQL",
      async () => {
        const fresh = await freshMysqlDatabase(myUrl);
        const pool = createPool({ uri: fresh.url, dateStrings: true, timezone: "Z", connectionLimit: 4 });
        return {
          config: mysql(pool),
          async close() {
            await new Promise<void>((resolve, reject) => pool.end((error) => (error ? reject(error) : resolve())));
            await fresh.drop();
          },
        };
      },
    ]);
  }
  return openers;
}
