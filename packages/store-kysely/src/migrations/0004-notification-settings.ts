/**
 * 0004_notification_settings: one row per user and source (`global` with source id 0, `namespace`
 * for a group, `project`), written only when a user changes a setting. Event keys live in a JSON
 * object so new keys need no migration.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function notificationSettingsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_notification_settings"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_notification_settings_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("source_type", "varchar(16)", (c) => c.notNull())
        .addColumn("source_id", "integer", (c) => c.notNull())
        .addColumn("level", "varchar(16)", (c) => c.notNull())
        .addColumn("notification_email", "varchar(255)")
        .addColumn("events", "text", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_notification_settings_user_source", ["user_id", "source_type", "source_id"])
        .execute();
      await db.schema
        .createIndex("forgekit_notification_settings_source")
        .on("forgekit_notification_settings")
        .columns(["source_type", "source_id", "user_id"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_notification_settings").execute();
    },
  };
}
