/**
 * 0012_issue_details: what the REST issue resources add to an issue — its assignees (one row per
 * issue and user, removed with either) and its milestone (`forgekit_issues.milestone_id`, cleared
 * when the milestone is deleted).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

export function issueDetailsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_issue_assignees"))
        .addColumn("issue_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_issue_assignees_issue_fk", ["issue_id"], "forgekit_issues", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_issue_assignees_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addPrimaryKeyConstraint("forgekit_issue_assignees_pk", ["issue_id", "user_id"])
        .execute();
      await db.schema.createIndex("forgekit_issue_assignees_user").on("forgekit_issue_assignees").columns(["user_id"]).execute();
      await db.schema.alterTable("forgekit_issues").addColumn("milestone_id", "integer").execute();
      await db.schema.createIndex("forgekit_issues_milestone").on("forgekit_issues").columns(["milestone_id"]).execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_issues_milestone", "forgekit_issues");
      await db.schema.alterTable("forgekit_issues").dropColumn("milestone_id").execute();
      await db.schema.dropTable("forgekit_issue_assignees").execute();
    },
  };
}
