/**
 * Every migration can be undone: from the latest schema down to none and back up again, on every
 * dialect under test (SQLite always; PostgreSQL and MySQL with their test URLs). The `down` of an
 * index written for one dialect only (MySQL's `DROP INDEX … ON`) fails here on the others.
 */
import { Kysely, Migrator, NO_MIGRATIONS } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectMatrix, type OpenedDialect } from "../test-databases.js";
import { MIGRATION_NAMES, migrationProvider } from "./index.js";

for (const [name, open] of dialectMatrix("forgekit-migrations-down-")) {
  describe(`migrations down and up again on ${name}`, () => {
    let opened: OpenedDialect;
    let db: Kysely<unknown>;
    let migrator: Migrator;
    beforeAll(async () => {
      opened = await open();
      const { config } = opened;
      const base = new Kysely<unknown>({ dialect: config.dialect });
      db = config.schema === undefined ? base : base.withSchema(config.schema);
      migrator = new Migrator({
        db,
        provider: migrationProvider(config.traits),
        migrationTableName: "forgekit_migrations",
        migrationLockTableName: "forgekit_migrations_lock",
        ...(config.schema === undefined ? {} : { migrationTableSchema: config.schema }),
      });
    });
    afterAll(async () => {
      await db?.destroy();
      await opened?.close();
    });

    const applied = async () => (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);

    it("latest → none → latest: each down runs, then every migration applies again", async () => {
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      expect(await applied()).toEqual(MIGRATION_NAMES);
      const down = await migrator.migrateTo(NO_MIGRATIONS);
      expect(down.error, String(down.results?.find((r) => r.status === "Error")?.migrationName)).toBeUndefined();
      expect(await applied()).toEqual([]);
      const again = await migrator.migrateToLatest();
      expect(again.error).toBeUndefined();
      expect(await applied()).toEqual(MIGRATION_NAMES);
    });
  });
}
