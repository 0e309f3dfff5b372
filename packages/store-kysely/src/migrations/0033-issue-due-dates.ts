/**
 * 0033_issue_due_dates: issues get `due_date` (reference `Issue#due_date`, set by `POST`/`PUT
 * /projects/:id/issues`), `YYYY-MM-DD` text like the milestones' dates (0025), so every dialect
 * compares them as text. Nullable: existing issues have none.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function issueDueDatesMigration(_traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_issues").addColumn("due_date", "varchar(10)").execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_issues").dropColumn("due_date").execute();
    },
  };
}
