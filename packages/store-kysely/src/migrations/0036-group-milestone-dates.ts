/**
 * 0036_group_milestone_dates: group milestones get `start_date` and `due_date` like project
 * milestones (0025; reference `Milestone` is one model for both), `YYYY-MM-DD` text so every dialect
 * compares them as text. Both nullable: existing group milestones have none.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function groupMilestoneDatesMigration(_traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_group_milestones").addColumn("start_date", "varchar(10)").execute();
      await db.schema.alterTable("forgekit_group_milestones").addColumn("due_date", "varchar(10)").execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_group_milestones").dropColumn("due_date").execute();
      await db.schema.alterTable("forgekit_group_milestones").dropColumn("start_date").execute();
    },
  };
}
