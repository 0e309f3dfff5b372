/**
 * 0029_web_hook_deliveries: events queued for hooks, written in the transaction of the change that
 * caused them (go with their hook); a hook's pending deliveries are found in id order.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function webHookDeliveriesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_web_hook_deliveries"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("hook_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_web_hook_deliveries_hook_fk", ["hook_id"], "forgekit_web_hooks", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("event_id", "integer", (c) => c.notNull())
        .addColumn("trigger_name", "varchar(64)", (c) => c.notNull())
        .addColumn("idempotency_key", "varchar(64)", (c) => c.notNull())
        .addColumn("event_uuid", "varchar(64)", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("finished_at", traits.timestampType)
        .execute();
      await db.schema.createIndex("forgekit_web_hook_deliveries_hook_state").on("forgekit_web_hook_deliveries").columns(["hook_id", "state", "id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_web_hook_deliveries").execute();
    },
  };
}
