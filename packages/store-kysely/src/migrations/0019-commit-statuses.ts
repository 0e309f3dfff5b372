/**
 * 0019_commit_statuses: commit statuses posted by external CI systems and the external pipelines
 * they make (one per sha and ref), merge-request assignees and reviewers, and a merge request's
 * settings (remove the source branch on merge; the automatic merge set by
 * `merge_when_pipeline_succeeds`). Pipelines and statuses go with their project; people and
 * settings with their merge request and user; a removed author leaves statuses without one.
 * Refs are text (git allows long names); status names and target URLs are validated to 255.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function commitStatusesMigration(traits: DialectTraits): Migration {
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_pipelines"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_pipelines_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("iid", "integer", (c) => c.notNull())
        .addColumn("sha", "varchar(64)", (c) => c.notNull())
        .addColumn("ref", "text", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("user_id", "integer")
        .addForeignKeyConstraint("forgekit_pipelines_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("set null"))
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addColumn("started_at", ts)
        .addColumn("finished_at", ts)
        .addUniqueConstraint("forgekit_pipelines_project_iid", ["project_id", "iid"])
        .execute();
      await db.schema.createIndex("forgekit_pipelines_sha").on("forgekit_pipelines").columns(["project_id", "sha", "id"]).execute();
      await db.schema.createIndex("forgekit_pipelines_user").on("forgekit_pipelines").columns(["user_id"]).execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_commit_statuses"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_commit_statuses_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("pipeline_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_commit_statuses_pipeline_fk", ["pipeline_id"], "forgekit_pipelines", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("sha", "varchar(64)", (c) => c.notNull())
        .addColumn("ref", "text", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("description", "text")
        .addColumn("target_url", "varchar(255)")
        .addColumn("coverage", "double precision")
        .addColumn("author_id", "integer")
        .addForeignKeyConstraint("forgekit_commit_statuses_author_fk", ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("set null"))
        .addColumn("retried", bool, (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addColumn("started_at", ts)
        .addColumn("finished_at", ts)
        .execute();
      await db.schema.createIndex("forgekit_commit_statuses_sha").on("forgekit_commit_statuses").columns(["project_id", "sha", "id"]).execute();
      await db.schema.createIndex("forgekit_commit_statuses_pipeline").on("forgekit_commit_statuses").columns(["pipeline_id", "name"]).execute();
      await db.schema.createIndex("forgekit_commit_statuses_author").on("forgekit_commit_statuses").columns(["author_id"]).execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_merge_request_people"))
        .addColumn("merge_request_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_people_mr_fk", ["merge_request_id"], "forgekit_merge_requests", ["id"], (fk) => fk.onDelete("cascade"))
        // assignee | reviewer
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_merge_request_people_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_merge_request_people_pk", ["merge_request_id", "role", "user_id"])
        .execute();
      await db.schema.createIndex("forgekit_merge_request_people_user").on("forgekit_merge_request_people").columns(["user_id", "role"]).execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_merge_request_settings"))
        .addColumn("merge_request_id", "integer", (c) => c.notNull().primaryKey())
        .addForeignKeyConstraint("forgekit_merge_request_settings_mr_fk", ["merge_request_id"], "forgekit_merge_requests", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("force_remove_source_branch", bool, (c) => c.notNull())
        .addColumn("auto_merge_user_id", "integer")
        .addForeignKeyConstraint("forgekit_merge_request_settings_user_fk", ["auto_merge_user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("set null"))
        .addColumn("auto_merge_sha", "varchar(64)")
        .addColumn("auto_merge_remove_source_branch", bool)
        .addColumn("auto_merge_created_at", ts)
        .execute();
      await db.schema.createIndex("forgekit_merge_request_settings_user").on("forgekit_merge_request_settings").columns(["auto_merge_user_id"]).execute();
    },
    async down(db: AnyDb) {
      for (const table of ["forgekit_merge_request_settings", "forgekit_merge_request_people", "forgekit_commit_statuses", "forgekit_pipelines"]) await db.schema.dropTable(table).execute();
    },
  };
}
