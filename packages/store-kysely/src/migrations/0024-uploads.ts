/** 0024_uploads: records of project Markdown uploads (the files live in the project's repository folder); removed with the project, uploader set null with the user. */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function uploadsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_uploads"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_uploads_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("secret", "varchar(32)", (c) => c.notNull())
        .addColumn("filename", "varchar(255)", (c) => c.notNull())
        .addColumn("size", "bigint", (c) => c.notNull())
        .addColumn("uploader_id", "integer")
        .addForeignKeyConstraint("forgekit_uploads_uploader_fk", ["uploader_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("set null"))
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_uploads_project_secret_file", ["project_id", "secret", "filename"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_uploads").execute();
    },
  };
}
