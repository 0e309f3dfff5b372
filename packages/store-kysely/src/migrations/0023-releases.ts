/**
 * 0023_releases: project releases (one per tag of a project; the author set null when the user goes)
 * and their asset links (name unique per release; url and filepath checked under the release's row
 * lock, as a unique key on a 2048-character url exceeds MySQL's index limit). Both go with their project.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function releasesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_releases"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("project_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_releases_project_fk", ["project_id"], "forgekit_projects", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("tag_name", "varchar(255)", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("author_id", "integer")
        .addForeignKeyConstraint("forgekit_releases_author_fk", ["author_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("set null"))
        .addColumn("sha", "varchar(64)", (c) => c.notNull())
        .addColumn("milestone_ids", "text", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("released_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_releases_project_tag", ["project_id", "tag_name"])
        .execute();
      await traits
        .tableOptions(db.schema.createTable("forgekit_release_links"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("release_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_release_links_release_fk", ["release_id"], "forgekit_releases", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("url", "varchar(2048)", (c) => c.notNull())
        .addColumn("filepath", "varchar(255)")
        .addColumn("link_type", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_release_links_release_name", ["release_id", "name"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_release_links").execute();
      await db.schema.dropTable("forgekit_releases").execute();
    },
  };
}
