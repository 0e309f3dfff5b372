/**
 * 0008_jobs: durable background jobs (DESIGN §6). Workers claim due rows through the
 * `(state, run_after)` index; `unique_key` is unique while set (every dialect lets NULLs repeat in
 * a unique index), which is what keeps one recurring job per key however many processes schedule it.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const KIND = 100;
const KEY = 191;
const OWNER = 191;

export function jobsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_jobs"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("kind", traits.foldedType(KIND), (c) => c.notNull())
        // MySQL's `text` stops at 64 KiB; a payload (an import's options) may be larger.
        .addColumn("payload", traits.name === "mysql" ? sql`mediumtext` : "text", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("max_attempts", "integer", (c) => c.notNull())
        .addColumn("run_after", traits.timestampType, (c) => c.notNull())
        .addColumn("lease_owner", traits.foldedType(OWNER))
        .addColumn("lease_expires_at", traits.timestampType)
        .addColumn("last_error", "text")
        .addColumn("progress_done", "bigint")
        .addColumn("progress_total", "bigint")
        .addColumn("cancel_requested", traits.booleanType, (c) => c.notNull())
        .addColumn("unique_key", traits.foldedType(KEY))
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addColumn("finished_at", traits.timestampType)
        .addUniqueConstraint("forgekit_jobs_unique_key", ["unique_key"])
        .execute();
      await db.schema.createIndex("forgekit_jobs_due").on("forgekit_jobs").columns(["state", "run_after", "id"]).execute();
      await db.schema.createIndex("forgekit_jobs_lease").on("forgekit_jobs").columns(["state", "lease_expires_at"]).execute();
      await db.schema.createIndex("forgekit_jobs_kind").on("forgekit_jobs").columns(["kind", "id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_jobs").execute();
    },
  };
}
