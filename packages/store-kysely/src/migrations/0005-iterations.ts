/**
 * 0005_iterations: group iterations. Dates are `YYYY-MM-DD` text, so every dialect compares them
 * the same way (lexically = chronologically); titles use the byte-ordered type so lists order by
 * code point everywhere. `(group_id, iid)` and `(group_id, title)` are unique.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const TITLE = 255;

export function iterationsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_iterations"))
        .addColumn("id", "integer", (c) => traits.idColumn(c))
        .addColumn("group_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_iterations_group_fk", ["group_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("iid", "integer", (c) => c.notNull())
        .addColumn("title", traits.foldedType(TITLE), (c) => c.notNull())
        .addColumn("title_lower", traits.foldedType(TITLE), (c) => c.notNull())
        // MySQL's `text` stops at 64 KiB; descriptions may be up to 1 MiB characters (reference limit).
        .addColumn("description", traits.name === "mysql" ? sql`mediumtext` : "text", (c) => c.notNull())
        .addColumn("start_date", "varchar(10)", (c) => c.notNull())
        .addColumn("due_date", "varchar(10)", (c) => c.notNull())
        .addColumn("created_at", traits.timestampType, (c) => c.notNull())
        .addColumn("updated_at", traits.timestampType, (c) => c.notNull())
        .addUniqueConstraint("forgekit_iterations_group_iid", ["group_id", "iid"])
        .addUniqueConstraint("forgekit_iterations_group_title", ["group_id", "title"])
        .execute();
      const index = (name: string, columns: string[]) => db.schema.createIndex(`forgekit_iterations_${name}`).on("forgekit_iterations").columns(columns).execute();
      await index("due", ["group_id", "due_date", "title", "id"]);
      await index("start", ["group_id", "start_date"]);
      await index("updated", ["group_id", "updated_at"]);
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_iterations").execute();
    },
  };
}
