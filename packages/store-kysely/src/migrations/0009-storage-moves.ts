/**
 * 0009_storage_moves: repository storage moves (spec "Repository storage moves"; reference §7).
 *
 * - Snippets and group wikis get what projects have had since 0001: the shard holding their
 *   repository and a read-only flag (`repository_storage` / `repository_read_only` on snippets,
 *   `wiki_repository_storage` / `wiki_repository_read_only` on namespaces, set for groups). The
 *   storage is NULL for rows made before this migration: which shard their repository is on is
 *   configuration the database does not know (the default shard then, or any shard since a change of
 *   the default), so it is found by looking on the shards the first time it matters and recorded then
 *   (core repositories/locate.ts). Guessing a name here could point a container at a shard that does
 *   not hold its repository; NULL never does.
 * - `forgekit_repository_storage_moves`: one row per move, its state as the reference's integers,
 *   the job running it; indexed for newest-first lists per kind and per container, and per job.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

/** Shard names are at most 64 characters (core repositories/config.ts). */
const STORAGE = "varchar(64)";

export function storageMovesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      const writable = traits.toBool(false);
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema.alterTable("forgekit_snippets").addColumn("repository_storage", STORAGE).execute();
      await db.schema.alterTable("forgekit_snippets").addColumn("repository_read_only", traits.booleanType, (c) => c.notNull().defaultTo(writable)).execute();
      await db.schema.alterTable("forgekit_namespaces").addColumn("wiki_repository_storage", STORAGE).execute();
      await db.schema.alterTable("forgekit_namespaces").addColumn("wiki_repository_read_only", traits.booleanType, (c) => c.notNull().defaultTo(writable)).execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_repository_storage_moves"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        // project | snippet | group (the container's id is in a table per kind: no foreign key).
        .addColumn("container_type", "varchar(16)", (c) => c.notNull())
        .addColumn("container_id", "integer", (c) => c.notNull())
        // initial 1, scheduled 2, started 3, finished 4, failed 5, replicated 6, cleanup_failed 7.
        .addColumn("state", "smallint", (c) => c.notNull())
        .addColumn("source_storage_name", STORAGE, (c) => c.notNull())
        .addColumn("destination_storage_name", STORAGE, (c) => c.notNull())
        .addColumn("error_message", "text")
        .addColumn("job_id", "integer")
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .execute();
      const moves = "forgekit_repository_storage_moves";
      await db.schema.createIndex("forgekit_storage_moves_kind").on(moves).columns(["container_type", "created_at", "id"]).execute();
      await db.schema.createIndex("forgekit_storage_moves_container").on(moves).columns(["container_type", "container_id", "created_at", "id"]).execute();
      await db.schema.createIndex("forgekit_storage_moves_job").on(moves).columns(["job_id", "id"]).execute();
      await db.schema.createIndex("forgekit_snippets_repository_storage").on("forgekit_snippets").columns(["repository_storage", "id"]).execute();
      await db.schema.createIndex("forgekit_namespaces_wiki_storage").on("forgekit_namespaces").columns(["wiki_repository_storage", "id"]).execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_namespaces_wiki_storage", "forgekit_namespaces");
      await dropIndexOf(db, traits, "forgekit_snippets_repository_storage", "forgekit_snippets");
      await db.schema.dropTable("forgekit_repository_storage_moves").execute();
      await db.schema.alterTable("forgekit_namespaces").dropColumn("wiki_repository_read_only").execute();
      await db.schema.alterTable("forgekit_namespaces").dropColumn("wiki_repository_storage").execute();
      await db.schema.alterTable("forgekit_snippets").dropColumn("repository_read_only").execute();
      await db.schema.alterTable("forgekit_snippets").dropColumn("repository_storage").execute();
    },
  };
}
