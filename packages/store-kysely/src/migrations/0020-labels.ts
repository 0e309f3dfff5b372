/**
 * 0020_labels: what the Labels API adds to the labels of 0010_imports — group labels (a label
 * belongs to a project or to a group: `project_id` becomes nullable, `group_id` is new, titles
 * unique per group), a label's priority per project, and users' label subscriptions, all removed
 * with their label (and project / group / user).
 *
 * SQLite cannot drop a NOT NULL, so there the labels table is rebuilt: created anew, its rows
 * copied with their ids, the old one dropped and the new one renamed. Dropping the old table
 * deletes its label links by `on delete cascade` (foreign keys cannot be switched off inside the
 * migration's transaction), so the links are copied aside first and put back.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const NAME = 255;
const COLUMNS = "id, project_id, name, color, description, created_at, updated_at";

/** The labels table of 0010_imports with `project_id` nullable and `group_id` added (SQLite's rebuild). */
async function createLabels(db: AnyDb, traits: DialectTraits, table: string): Promise<void> {
  await traits
    .tableOptions(db.schema.createTable(table))
    .addColumn("id", "integer", (c) => traits.idColumn(c))
    .addColumn("project_id", "integer")
    .addForeignKeyConstraint("forgekit_labels_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
    .addColumn("name", traits.foldedType(NAME), (c) => c.notNull())
    .addColumn("color", "varchar(16)", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("created_at", traits.timestampType, (c) => c.notNull())
    .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
    .addColumn("group_id", "integer")
    .addForeignKeyConstraint("forgekit_labels_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
    .addUniqueConstraint("forgekit_labels_project_name", ["project_id", "name"])
    .addUniqueConstraint("forgekit_labels_group_name", ["group_id", "name"])
    .execute();
}

async function rebuildOnSqlite(db: AnyDb, traits: DialectTraits): Promise<void> {
  await sql.raw("CREATE TABLE forgekit_label_links_saved AS SELECT * FROM forgekit_label_links").execute(db);
  await createLabels(db, traits, "forgekit_labels_rebuilt");
  await sql.raw(`INSERT INTO forgekit_labels_rebuilt (${COLUMNS}) SELECT ${COLUMNS} FROM forgekit_labels`).execute(db);
  await sql.raw("DROP TABLE forgekit_labels").execute(db);
  await sql.raw("ALTER TABLE forgekit_labels_rebuilt RENAME TO forgekit_labels").execute(db);
  await sql.raw("INSERT INTO forgekit_label_links SELECT * FROM forgekit_label_links_saved").execute(db);
  await sql.raw("DROP TABLE forgekit_label_links_saved").execute(db);
}

async function addGroupLabels(db: AnyDb, traits: DialectTraits): Promise<void> {
  if (traits.name === "sqlite") return rebuildOnSqlite(db, traits);
  const labels = db.schema.alterTable("forgekit_labels");
  await (traits.name === "mysql" ? labels.modifyColumn("project_id", "integer") : labels.alterColumn("project_id", (c) => c.dropNotNull())).execute();
  await db.schema.alterTable("forgekit_labels").addColumn("group_id", "integer").execute();
  await db.schema.alterTable("forgekit_labels").addForeignKeyConstraint("forgekit_labels_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade")).execute();
  await db.schema.alterTable("forgekit_labels").addUniqueConstraint("forgekit_labels_group_name", ["group_id", "name"]).execute();
}

export function labelsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await addGroupLabels(db, traits);
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
      // Group labels go; `project_id` stays nullable and `group_id` stays (unused by 0010's code).
      await db.deleteFrom("forgekit_labels").where("project_id", "is", null).execute();
    },
  };
}
