/**
 * 0013_merge_request_merges: what the REST merge-request and snippet resources add to their rows —
 * who merged a merge request and the merge commit it made (reference `merge_user`,
 * `merge_commit_sha`), and a snippet's description (NULL reads as empty). Existing rows have none.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function mergeRequestMergesMigration(_traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_merge_requests").addColumn("merge_user_id", "integer").execute();
      await db.schema.alterTable("forgekit_merge_requests").addColumn("merge_commit_sha", "varchar(64)").execute();
      await db.schema.alterTable("forgekit_snippets").addColumn("description", "text").execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_snippets").dropColumn("description").execute();
      await db.schema.alterTable("forgekit_merge_requests").dropColumn("merge_commit_sha").execute();
      await db.schema.alterTable("forgekit_merge_requests").dropColumn("merge_user_id").execute();
    },
  };
}
