/**
 * 0032_imported_from: issues, notes and snippets remember the import that wrote them (reference
 * `Importable#imported_from`, shown as `imported` / `imported_from`): `none` for records made here,
 * else the import source (`extforge`, `extserver`; gists come from `extforge`). Existing rows read `none`: imports before this
 * migration left no mark to tell them apart.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const TABLES = ["forgekit_issues", "forgekit_notes", "forgekit_snippets"] as const;

export function importedFromMigration(_traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      for (const table of TABLES) await db.schema.alterTable(table).addColumn("imported_from", "varchar(32)", (c) => c.notNull().defaultTo("none")).execute();
    },
    async down(db: AnyDb) {
      for (const table of TABLES) await db.schema.alterTable(table).dropColumn("imported_from").execute();
    },
  };
}
