/**
 * 0017_oauth_token_rowid: on SQLite, the OAuth tokens table's id becomes a plain `INTEGER PRIMARY
 * KEY` instead of `AUTOINCREMENT`. AUTOINCREMENT keeps a row per table in `sqlite_sequence`, which
 * every token insert (each code and refresh grant) updates: one more page written to the WAL per
 * grant, about 12 µs of CPU of a rotation's ~110 µs in SQLite (issue 12). Without it a new id is
 * the largest id in the table plus one, so an id can only come back after the row holding the
 * largest id was deleted (cleanup of inactive tokens); no surviving row can refer to such an id,
 * because `previous_id` always names an older, smaller id than the row's own. PostgreSQL and MySQL
 * keep their identity columns unchanged (nothing to do there).
 *
 * SQLite cannot alter a column's key, so the table is rebuilt from its own stored definition (every
 * column and constraint kept), the rows copied with their ids, and its indexes created again — all
 * inside the migration's transaction.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const TABLE = "forgekit_oauth_tokens";
const REBUILT = "forgekit_oauth_tokens_rebuilt";

/** The stored `CREATE TABLE` of the tokens table and the `CREATE INDEX` statements of its named indexes. */
async function definition(db: AnyDb): Promise<{ table: string; indexes: string[] }> {
  const rows = (
    await sql<{ type: string; sql: string | null }>`select type, sql from sqlite_master where tbl_name = ${TABLE} and sql is not null`.execute(db)
  ).rows;
  const table = rows.find((row) => row.type === "table")?.sql;
  if (table === undefined || table === null) throw new Error(`${TABLE} is missing`);
  const indexes = rows.filter((row) => row.type === "index").map((row) => row.sql ?? "");
  return { table, indexes };
}

/** Rebuilds the table from its definition with `to` replacing what `from` matches (nothing to do when it does not match). */
async function rebuild(db: AnyDb, from: RegExp, to: string): Promise<void> {
  const { table, indexes } = await definition(db);
  if (!from.test(table)) return;
  const head = new RegExp(`^CREATE TABLE "?${TABLE}"?`, "i");
  if (!head.test(table)) throw new Error(`unexpected definition of ${TABLE}: ${table.slice(0, 80)}`);
  await sql.raw(table.replace(head, `CREATE TABLE "${REBUILT}"`).replace(from, to)).execute(db);
  await sql.raw(`INSERT INTO "${REBUILT}" SELECT * FROM "${TABLE}"`).execute(db);
  await sql.raw(`DROP TABLE "${TABLE}"`).execute(db);
  await sql.raw(`ALTER TABLE "${REBUILT}" RENAME TO "${TABLE}"`).execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}

export function oauthTokenRowidMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      if (traits.name !== "sqlite") return;
      await rebuild(db, /"id" integer primary key autoincrement/i, `"id" integer primary key`);
    },
    async down(db: AnyDb) {
      if (traits.name !== "sqlite") return;
      await rebuild(db, /"id" integer primary key(?! autoincrement)/i, `"id" integer primary key autoincrement`);
    },
  };
}
