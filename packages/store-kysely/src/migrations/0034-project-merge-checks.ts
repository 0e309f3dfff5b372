/**
 * 0034_project_merge_checks: the project settings `only_allow_merge_if_pipeline_succeeds` and
 * `only_allow_merge_if_all_discussions_are_resolved` (issue 19), which the project entity showed as
 * constants, become stored columns. Existing projects keep merging as they did (both false).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const COLUMNS = ["only_allow_merge_if_pipeline_succeeds", "only_allow_merge_if_all_discussions_are_resolved"] as const;

export function projectMergeChecksMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      // One ALTER per column: SQLite adds one column per statement.
      for (const column of COLUMNS) {
        await db.schema.alterTable("forgekit_projects").addColumn(column, traits.booleanType, (c) => c.notNull().defaultTo(traits.toBool(false))).execute();
      }
    },
    async down(db: AnyDb) {
      for (const column of [...COLUMNS].reverse()) await db.schema.alterTable("forgekit_projects").dropColumn(column).execute();
    },
  };
}
