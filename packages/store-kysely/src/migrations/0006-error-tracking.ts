/**
 * 0006_error_tracking: per-project settings, client keys, and the errors the collector receives
 * (groups unique per project and fingerprint, with their events). Every row goes with its project.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DataTypeExpression, DialectTraits } from "../dialects/traits.js";

const NAME = 255;

export function errorTrackingMigration(traits: DialectTraits): Migration {
  const table = (db: AnyDb, name: string) => traits.tableOptions(db.schema.createTable(name)).addColumn("id", "integer", (column) => traits.idColumn(column));
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  // An event payload may be up to the decoded body limit (1 MiB by default): MySQL's `text` stops at 64 KiB.
  const document: DataTypeExpression = traits.name === "mysql" ? sql.raw("mediumtext") : "text";
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_error_tracking_settings"))
        .addColumn("project_id", "integer", (c) => c.primaryKey())
        .addForeignKeyConstraint("forgekit_error_tracking_settings_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("active", bool, (c) => c.notNull())
        .addColumn("integrated", bool, (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();

      await table(db, "forgekit_error_tracking_client_keys")
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_error_tracking_client_keys_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("active", bool, (c) => c.notNull())
        .addColumn("public_key", `varchar(${NAME})`, (c) => c.notNull().unique())
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_error_tracking_client_keys_project").on("forgekit_error_tracking_client_keys").columns(["project_id", "id"]).execute();

      await table(db, "forgekit_error_tracking_errors")
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_error_tracking_errors_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("fingerprint", "varchar(64)", (c) => c.notNull())
        .addColumn("name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("actor", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("platform", `varchar(${NAME})`)
        .addColumn("event_count", "integer", (c) => c.notNull())
        .addColumn("first_seen_at", ts, (c) => c.notNull())
        .addColumn("last_seen_at", ts, (c) => c.notNull())
        .addUniqueConstraint("forgekit_error_tracking_errors_fingerprint", ["project_id", "fingerprint"])
        .execute();
      const errorIndex = (name: string, column: string) =>
        db.schema.createIndex(`forgekit_error_tracking_errors_${name}`).on("forgekit_error_tracking_errors").columns(["project_id", column, "id"]).execute();
      await errorIndex("last_seen", "last_seen_at");
      await errorIndex("first_seen", "first_seen_at");
      await errorIndex("frequency", "event_count");

      await table(db, "forgekit_error_tracking_events")
        .addColumn("error_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_error_tracking_events_error_fk", ["error_id"], "forgekit_error_tracking_errors", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addColumn("event_id", "varchar(32)")
        .addColumn("level", `varchar(${NAME})`)
        .addColumn("environment", `varchar(${NAME})`)
        .addColumn("occurred_at", ts)
        .addColumn("received_at", ts, (c) => c.notNull())
        .addColumn("payload", document, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_error_tracking_events_error").on("forgekit_error_tracking_events").columns(["error_id", "received_at", "id"]).execute();
    },
    async down(db: AnyDb) {
      for (const name of ["forgekit_error_tracking_events", "forgekit_error_tracking_errors", "forgekit_error_tracking_client_keys", "forgekit_error_tracking_settings"]) {
        await db.schema.dropTable(name).execute();
      }
    },
  };
}
