/**
 * 0038_merge_request_closing_issues: which issues each merge request closes (reference table
 * `merge_requests_closing_issues`), written when an open merge request is created, edited,
 * reopened or its source branch moves, kept after it merges. A row goes with its merge request and
 * with its issue (both cascade). Read per issue: the index on `issue_id` serves the issue entity's
 * `merge_requests_count` and `closed_by`. Merge requests opened before this migration get their
 * rows at their next edit or push.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function mergeRequestClosingIssuesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_merge_request_closing_issues"))
        .addColumn("merge_request_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_closing_issues_mr_fk", ["merge_request_id"], "forgekit_merge_requests", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("issue_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_closing_issues_issue_fk", ["issue_id"], "forgekit_issues", ["id"], (fk) => fk.onDelete("cascade"))
        .addPrimaryKeyConstraint("forgekit_merge_request_closing_issues_pk", ["merge_request_id", "issue_id"])
        .execute();
      await db.schema.createIndex("forgekit_merge_request_closing_issues_issue").on("forgekit_merge_request_closing_issues").columns(["issue_id", "merge_request_id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_merge_request_closing_issues").execute();
    },
  };
}
