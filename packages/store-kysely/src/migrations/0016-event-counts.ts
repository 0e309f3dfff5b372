/**
 * 0016_event_counts: per-project and per-author event counters (repositories/event-counts.ts), the
 * lower bound that lets a feed omit its `x-total` headers without counting 10,001 rows. Keys follow
 * the feed: key, slot (`action`, `target_type`, `*` = any), 32-day bucket, audience rank; they go
 * with their project or author by cascade. Filled from the events already recorded.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { AUTHOR_COUNT_KEY, AUTHOR_COUNTS, PROJECT_COUNT_KEY, PROJECT_COUNTS, rebuildEventCounts } from "../repositories/event-counts.js";

export function eventCountsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable(PROJECT_COUNTS))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint(`${PROJECT_COUNTS}_project_fk`, ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("action", "varchar(16)", (c) => c.notNull())
        .addColumn("target_type", "varchar(32)", (c) => c.notNull())
        .addColumn("bucket", "integer", (c) => c.notNull())
        .addColumn("audience", "smallint", (c) => c.notNull())
        .addColumn("n", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${PROJECT_COUNTS}_pk`, [...PROJECT_COUNT_KEY])
        .execute();
      await traits
        .tableOptions(db.schema.createTable(AUTHOR_COUNTS))
        .addColumn("author_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint(`${AUTHOR_COUNTS}_author_fk`, ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint(`${AUTHOR_COUNTS}_project_fk`, ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("action", "varchar(16)", (c) => c.notNull())
        .addColumn("target_type", "varchar(32)", (c) => c.notNull())
        .addColumn("bucket", "integer", (c) => c.notNull())
        .addColumn("audience", "smallint", (c) => c.notNull())
        .addColumn("n", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint(`${AUTHOR_COUNTS}_pk`, [...AUTHOR_COUNT_KEY])
        .execute();
      // Cascades from a deleted project look the rows up by project.
      await db.schema.createIndex(`${AUTHOR_COUNTS}_project`).on(AUTHOR_COUNTS).columns(["project_id"]).execute();
      await rebuildEventCounts(db, traits);
    },
    async down(db: AnyDb) {
      await db.schema.dropTable(AUTHOR_COUNTS).execute();
      await db.schema.dropTable(PROJECT_COUNTS).execute();
    },
  };
}
