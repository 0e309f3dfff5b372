/**
 * 0030_rate_limits: the store-backed `RateLimiter` (issue 22) — failures per key in a fixed window,
 * shared by every instance on the database. The key is ASCII (hashed parts), compared byte-wise.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function rateLimitsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_rate_limits"))
        .addColumn("key", traits.foldedType(128), (c) => c.primaryKey())
        .addColumn("window_start", "bigint", (c) => c.notNull())
        .addColumn("failures", "integer", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_rate_limits_window").on("forgekit_rate_limits").columns(["window_start"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_rate_limits").execute();
    },
  };
}
