/**
 * The storage-moves conformance suite (core testing/storage-moves-conformance) on every database of
 * the matrix, each test with two stores on one database standing for two processes: SQLite always
 * (two stores on one file), PostgreSQL and MySQL / MariaDB when their URLs are set (two pools on one
 * schema/database, emptied before each test).
 */
import { runStorageMovesConformance, type StorageMovesTarget } from "@forgekit/core/testing";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely } from "kysely";
import pg from "pg";
import { afterAll, describe, it } from "vitest";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";
import { FORGEKIT_TABLES, type Database } from "./schema.js";
import { kyselyStore } from "./store.js";
import { freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

describe("SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-storage-moves-"));
  let files = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runStorageMovesConformance("kyselyStore(sqlite).storageMoves", async () => {
    files += 1;
    const path = join(dir, `moves-${files}.sqlite`);
    const store = kyselyStore(sqlite(path));
    await store.migrate();
    return { store, rival: kyselyStore(sqlite(path)) };
  });
});

/** Deletes every forgekit row, on a connection of its own closed at once. */
async function clearAll(config: DialectConfig): Promise<void> {
  const cleaner = new Kysely<Database>({ dialect: config.dialect });
  try {
    const db = config.schema === undefined ? cleaner : cleaner.withSchema(config.schema);
    // MySQL checks the self-referencing parent key row by row: detach subgroups first.
    await db.updateTable("forgekit_namespaces").set({ parent_id: null }).execute();
    for (const table of FORGEKIT_TABLES) await db.deleteFrom(table).execute();
  } finally {
    await cleaner.destroy();
  }
}

function sharedDatabase(name: string, open: () => Promise<{ config: () => DialectConfig; drop: () => Promise<void> }>): void {
  describe(name, () => {
    let database: { config: () => DialectConfig; drop: () => Promise<void> } | undefined;
    afterAll(async () => {
      await database?.drop();
    });
    runStorageMovesConformance(`kyselyStore(${name}).storageMoves`, async (): Promise<StorageMovesTarget> => {
      if (database === undefined) {
        database = await open();
        const first = kyselyStore(database.config());
        await first.migrate();
        await first.close();
      }
      await clearAll(database.config());
      return { store: kyselyStore(database.config()), rival: kyselyStore(database.config()) };
    });
  });
}

const skip = (variable: string, what: string) => {
  console.log(`store-kysely: ${variable} is not set — ${what} storage-moves conformance skipped`);
  it.skip(`${what} storage-moves conformance (set ${variable} to run it)`, () => {});
};

const postgresUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
if (postgresUrl === undefined || postgresUrl === "") skip("FORGEKIT_TEST_POSTGRES_URL", "PostgreSQL");
else {
  const url = postgresUrl;
  const schema = uniqueSchemaName();
  sharedDatabase("postgres", () =>
    Promise.resolve({
      config: () => postgres(url, { schema, max: 3 }),
      drop: async () => {
        const admin = new pg.Pool({ connectionString: url, max: 1 });
        try {
          await admin.query(`drop schema if exists "${schema}" cascade`);
        } finally {
          await admin.end();
        }
      },
    }),
  );
}

const mysqlUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
if (mysqlUrl === undefined || mysqlUrl === "") skip("FORGEKIT_TEST_MYSQL_URL", "MySQL / MariaDB");
else {
  const url = mysqlUrl;
  sharedDatabase("mysql", async () => {
    const fresh = await freshMysqlDatabase(url);
    return { config: () => mysql(fresh.url, { connectionLimit: 3 }), drop: fresh.drop };
  });
}
