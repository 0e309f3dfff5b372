/**
 * 0010_imports: project imports (issue 10). One import row per project (its status, error, job,
 * options, credentials while it runs, counts and resume point, as JSON text); the map of external ids to the records an
 * import wrote, unique per `(project, kind, external id)` so a re-run step writes nothing twice;
 * project labels (unique name per project) and their links to issues and merge requests.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const NAME = 255;
const EXTERNAL_ID = 191;

export function importsMigration(traits: DialectTraits): Migration {
  const longText = traits.name === "mysql" ? sql`mediumtext` : "text";
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_project_imports"))
        .addColumn("project_id", "integer", (c) => c.primaryKey().notNull())
        .addForeignKeyConstraint("forgekit_project_imports_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("source", "varchar(16)", (c) => c.notNull())
        .addColumn("import_source", "varchar(512)", (c) => c.notNull())
        .addColumn("url", "varchar(2048)", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("job_id", "integer")
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("options", longText, (c) => c.notNull())
        // The forge / server credentials while the import runs (sealed when a key-encryption key is
        // configured); cleared when the import ends.
        .addColumn("credentials", "text")
        .addColumn("stats", "text", (c) => c.notNull())
        .addColumn("checkpoint", "text")
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_import_external_ids"))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_import_external_ids_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("kind", "varchar(32)", (c) => c.notNull())
        .addColumn("external_id", traits.foldedType(EXTERNAL_ID), (c) => c.notNull())
        .addColumn("record_id", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_import_external_ids_pk", ["project_id", "kind", "external_id"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_labels"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_labels_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("name", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("color", "varchar(16)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_labels_project_name", ["project_id", "name"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_label_links"))
        .addColumn("label_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_label_links_label_fk", ["label_id"], "forgekit_labels", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("target_type", "varchar(16)", (c) => c.notNull())
        .addColumn("target_id", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_label_links_pk", ["label_id", "target_type", "target_id"])
        .execute();
      await db.schema.createIndex("forgekit_label_links_target").on("forgekit_label_links").columns(["target_type", "target_id"]).execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_label_links").execute();
      await db.schema.dropTable("forgekit_labels").execute();
      await db.schema.dropTable("forgekit_import_external_ids").execute();
      await db.schema.dropTable("forgekit_project_imports").execute();
    },
  };
}
