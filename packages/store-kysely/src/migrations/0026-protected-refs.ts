/**
 * 0026_protected_refs: protected branch and tag rules of projects (name unique per project and kind,
 * compared case-sensitively) and their access rows; both go with their project, a row naming a user
 * or group goes with that user or group.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function protectedRefsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_protected_refs"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_protected_refs_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("kind", "varchar(8)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("allow_force_push", traits.booleanType, (c) => c.notNull())
        .addColumn("code_owner_approval_required", traits.booleanType, (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_protected_refs_project_kind_name", ["project_id", "kind", "name"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_protected_ref_access"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("protected_ref_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_protected_ref_access_ref_fk", ["protected_ref_id"], "forgekit_protected_refs", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("action", "varchar(16)", (c) => c.notNull())
        .addColumn("access_level", "integer", (c) => c.notNull())
        .addColumn("user_id", "integer")
        .addForeignKeyConstraint("forgekit_protected_ref_access_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("group_id", "integer")
        .addForeignKeyConstraint("forgekit_protected_ref_access_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .execute();
      await db.schema.createIndex("forgekit_protected_ref_access_ref").on("forgekit_protected_ref_access").column("protected_ref_id").execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_protected_ref_access").execute();
      await db.schema.dropTable("forgekit_protected_refs").execute();
    },
  };
}
