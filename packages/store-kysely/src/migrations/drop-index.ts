/**
 * Dropping an index in a migration's `down`: MySQL names the index's table (`DROP INDEX i ON t`);
 * SQLite and PostgreSQL refuse `ON` (index names are schema-wide there).
 */
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

/** Drops `index` of `table` in the spelling `traits`' dialect accepts. */
export async function dropIndexOf(db: AnyDb, traits: DialectTraits, index: string, table: string): Promise<void> {
  const drop = db.schema.dropIndex(index);
  await (traits.name === "mysql" ? drop.on(table) : drop).execute();
}
