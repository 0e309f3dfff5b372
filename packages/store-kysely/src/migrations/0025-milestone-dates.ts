/**
 * 0025_milestone_dates: project milestones get `start_date` and `due_date` (reference `Milestone`),
 * `YYYY-MM-DD` text like the iterations' dates (0005), so every dialect compares them as text. Both
 * nullable: existing milestones have none.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function milestoneDatesMigration(_traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_milestones").addColumn("start_date", "varchar(10)").execute();
      await db.schema.alterTable("forgekit_milestones").addColumn("due_date", "varchar(10)").execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_milestones").dropColumn("due_date").execute();
      await db.schema.alterTable("forgekit_milestones").dropColumn("start_date").execute();
    },
  };
}
