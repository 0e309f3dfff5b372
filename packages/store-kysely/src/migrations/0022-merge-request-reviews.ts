/**
 * 0022_merge_request_reviews: merge-request versions (one per distinct source head), approvals,
 * each project's approval configuration and its approval rules with their eligible users and
 * groups. Versions and approvals go with their merge request, approvals also with their user;
 * settings and rules with their project; rule users and groups with the rule, the user or group.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function mergeRequestReviewsMigration(traits: DialectTraits): Migration {
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_merge_request_versions"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("merge_request_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_versions_mr_fk", ["merge_request_id"], "forgekit_merge_requests", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("head_sha", "varchar(64)", (c) => c.notNull())
        .addColumn("base_sha", "varchar(64)", (c) => c.notNull())
        .addColumn("start_sha", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addUniqueConstraint("forgekit_merge_request_versions_head", ["merge_request_id", "head_sha"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_merge_request_approvals"))
        .addColumn("merge_request_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_approvals_mr_fk", ["merge_request_id"], "forgekit_merge_requests", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_approvals_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("created_at", ts, (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_merge_request_approvals_pk", ["merge_request_id", "user_id"])
        .execute();
      await db.schema.createIndex("forgekit_merge_request_approvals_user").on("forgekit_merge_request_approvals").columns(["user_id"]).execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_project_approval_settings"))
        .addColumn("project_id", "integer", (c) => c.notNull().primaryKey())
        .addForeignKeyConstraint("forgekit_project_approval_settings_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("approvals_before_merge", "integer", (c) => c.notNull())
        .addColumn("reset_approvals_on_push", bool, (c) => c.notNull())
        .addColumn("disable_overriding_approvers_per_merge_request", bool, (c) => c.notNull())
        .addColumn("merge_requests_author_approval", bool, (c) => c.notNull())
        .addColumn("merge_requests_disable_committers_approval", bool, (c) => c.notNull())
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_approval_rules"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_approval_rules_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("approvals_required", "integer", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_approval_rules_project").on("forgekit_approval_rules").columns(["project_id", "id"]).execute();
      for (const [table, column, parent] of [
        ["forgekit_approval_rule_users", "user_id", "forgekit_users"],
        ["forgekit_approval_rule_groups", "group_id", "forgekit_namespaces"],
      ] as const) {
        await traits
          .tableOptions(db.schema.createTable(table))
          .addColumn("rule_id", "integer", (c) => c.notNull())
          .addForeignKeyConstraint(`${table}_rule_fk`, ["rule_id"], "forgekit_approval_rules", ["id"], (fk) => fk.onDelete("cascade"))
          .addColumn(column, "integer", (c) => c.notNull())
          .addForeignKeyConstraint(`${table}_member_fk`, [column], parent, ["id"], (fk) => fk.onDelete("cascade"))
          .addPrimaryKeyConstraint(`${table}_pk`, ["rule_id", column])
          .execute();
        await db.schema.createIndex(`${table}_member`).on(table).columns([column]).execute();
      }
    },
    async down(db: AnyDb) {
      for (const table of ["forgekit_approval_rule_groups", "forgekit_approval_rule_users", "forgekit_approval_rules", "forgekit_project_approval_settings", "forgekit_merge_request_approvals", "forgekit_merge_request_versions"]) await db.schema.dropTable(table).execute();
    },
  };
}
