/**
 * 0018_labels: what the Labels API adds to the labels of 0010_imports — a label's priority per
 * project and users' label subscriptions, both removed with their label (and project / user).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function labelsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_label_priorities"))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_label_priorities_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("label_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_label_priorities_label_fk", ["label_id"], "forgekit_labels", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("priority", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_label_priorities_pk", ["project_id", "label_id"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_label_subscriptions"))
        .addColumn("label_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_label_subscriptions_label_fk", ["label_id"], "forgekit_labels", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_label_subscriptions_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addPrimaryKeyConstraint("forgekit_label_subscriptions_pk", ["label_id", "user_id"])
        .execute();
      await db.schema.createIndex("forgekit_label_subscriptions_user").on("forgekit_label_subscriptions").columns(["user_id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_label_subscriptions").execute();
      await db.schema.dropTable("forgekit_label_priorities").execute();
    },
  };
}
