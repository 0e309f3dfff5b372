/** 0015_group_milestones: milestones of groups (iid and title unique per group), removed with their group. */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const NAME = 255;

export function groupMilestonesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_group_milestones"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("group_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_group_milestones_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("iid", "integer", (c) => c.notNull())
        .addColumn("title", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_group_milestones_group_iid", ["group_id", "iid"])
        .addUniqueConstraint("forgekit_group_milestones_group_title", ["group_id", "title"])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_group_milestones").execute();
    },
  };
}
