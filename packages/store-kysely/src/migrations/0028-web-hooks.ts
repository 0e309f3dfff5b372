/**
 * 0028_web_hooks: project, group and system webhooks (a hook goes with its project or group) and
 * their delivery log (goes with its hook), listed per hook newest first.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function webHooksMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_web_hooks"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("scope", "varchar(16)", (c) => c.notNull())
        .addColumn("project_id", "integer")
        .addForeignKeyConstraint("forgekit_web_hooks_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("group_id", "integer")
        .addForeignKeyConstraint("forgekit_web_hooks_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("token", "text")
        .addColumn("enable_ssl_verification", traits.booleanType, (c) => c.notNull())
        .addColumn("branch_filter", "text")
        .addColumn("branch_filter_strategy", "varchar(16)", (c) => c.notNull())
        .addColumn("events", "varchar(1000)", (c) => c.notNull())
        .addColumn("recent_failures", "integer", (c) => c.notNull())
        .addColumn("backoff_count", "integer", (c) => c.notNull())
        .addColumn("disabled_until", traits.timestampType)
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_web_hooks_project").on("forgekit_web_hooks").column("project_id").execute();
      await db.schema.createIndex("forgekit_web_hooks_group").on("forgekit_web_hooks").column("group_id").execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_web_hook_logs"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("hook_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_web_hook_logs_hook_fk", ["hook_id"], "forgekit_web_hooks", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("trigger_name", "varchar(64)", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("request_headers", "text", (c) => c.notNull())
        .addColumn("request_data", "text", (c) => c.notNull())
        .addColumn("response_headers", "text", (c) => c.notNull())
        .addColumn("response_body", "text", (c) => c.notNull())
        .addColumn("response_status", "varchar(32)", (c) => c.notNull())
        .addColumn("execution_micros", "bigint", (c) => c.notNull())
        .addColumn("idempotency_key", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_web_hook_logs_hook").on("forgekit_web_hook_logs").columns(["hook_id", "id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_web_hook_logs").execute();
      await db.schema.dropTable("forgekit_web_hooks").execute();
    },
  };
}
