/**
 * 0018_job_workers: the worker registry of background jobs (ports/jobs-store.ts `heartbeat`). A
 * running worker pool keeps one row, `alive_until` moved forward every few seconds; a claim takes
 * over a running job whose lease owner's row has passed `alive_until` (the worker crashed) without
 * waiting for the job's lease to end.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

/** As long as `forgekit_jobs.lease_owner`. */
const OWNER = 191;

export function jobWorkersMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_job_workers"))
        .addColumn("owner", traits.foldedType(OWNER), (c) => c.primaryKey())
        .addColumn("alive_until", traits.timestampType, (c) => c.notNull())
        .addColumn("beat_at", traits.timestampType, (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_job_workers").execute();
    },
  };
}
