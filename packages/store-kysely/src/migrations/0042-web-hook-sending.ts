/**
 * 0042_web_hook_sending: a hook's deliveries are sent by one holder at a time, in order
 * (webhooks/job.ts): the hook keeps its sending lease (`sender`, `sending_until`), and a delivery
 * keeps the request built in the transaction of its change (`payload`, JSON text; null when it is
 * built when sent), so whoever holds the lease can send any pending delivery of the hook.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function webHookSendingMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_web_hooks").addColumn("sender", "varchar(128)").execute();
      await db.schema.alterTable("forgekit_web_hooks").addColumn("sending_until", traits.timestampType).execute();
      await db.schema.alterTable("forgekit_web_hook_deliveries").addColumn("payload", traits.name === "mysql" ? sql`mediumtext` : "text").execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_web_hook_deliveries").dropColumn("payload").execute();
      for (const column of ["sending_until", "sender"]) await db.schema.alterTable("forgekit_web_hooks").dropColumn(column).execute();
    },
  };
}
