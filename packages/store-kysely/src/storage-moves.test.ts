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
import { Kysely, Migrator } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";
import { migrationProvider } from "./migrations/index.js";
import { FORGEKIT_TABLES, type Database } from "./schema.js";
import { kyselyStore } from "./store.js";
import { dropPostgresSchema, freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

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

function sharedDatabase(name: string, title: string, run: boolean, open: () => Promise<{ config: () => DialectConfig; drop: () => Promise<void> }>): void {
  // Collected as skipped (so the run's summary counts the tests) when `run` is false.
  describe.skipIf(!run)(title, () => {
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

const configured = (variable: string, what: string): boolean => {
  const set = (process.env[variable] ?? "") !== "";
  if (!set) console.log(`store-kysely: ${variable} is not set — ${what} storage-moves conformance skipped`);
  return set;
};

{
  const url = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
  const schema = uniqueSchemaName();
  sharedDatabase("postgres", "PostgreSQL", configured("FORGEKIT_TEST_POSTGRES_URL", "PostgreSQL"), () =>
    Promise.resolve({
      config: () => postgres(url, { schema, max: 3 }),
      drop: () => dropPostgresSchema(url, schema),
    }),
  );
}

{
  const url = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
  sharedDatabase("mysql", "MySQL / MariaDB", configured("FORGEKIT_TEST_MYSQL_URL", "MySQL / MariaDB"), async () => {
    const fresh = await freshMysqlDatabase(url);
    return { config: () => mysql(fresh.url, { connectionLimit: 3 }), drop: fresh.drop };
  });
}

describe("0009_storage_moves on a database migrated before it existed", () => {
  it("applies after 0010 already ran there (shipped out of order), keeping the rows: snippets and groups unrecorded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-0009-"));
    try {
      const config = sqlite(join(dir, "old.sqlite"));
      const db = new Kysely<unknown>({ dialect: config.dialect });
      const all = await migrationProvider(config.traits).getMigrations();
      const before = Object.fromEntries(Object.entries(all).filter(([name]) => name !== "0009_storage_moves"));
      const old = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(before) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
      const first = await old.migrateToLatest();
      expect(first.error).toBeUndefined();
      expect(first.results?.map((r) => r.migrationName)).toContain("0010_imports");
      await db.destroy();
      const store = kyselyStore(sqlite(join(dir, "old.sqlite")));
      try {
        expect(await store.migrate()).toEqual({ applied: ["0009_storage_moves"] });
        const user = await store.users.create({ username: "u", name: "U" }, new Date());
        const snippet = await store.activity.snippets.create({ projectId: null, authorId: user?.id ?? 0, title: "t", fileName: "f", content: "", visibility: "private" }, new Date());
        expect(await store.storageMoves.containers.find("snippet", snippet.id)).toEqual({ kind: "snippet", id: snippet.id, storage: null, readOnly: false });
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
