/**
 * 0017_oauth_token_rowid on a SQLite database that already holds tokens: the table loses
 * AUTOINCREMENT (no `sqlite_sequence` write per grant) and keeps every row, id, constraint and index;
 * going down restores AUTOINCREMENT with the rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite } from "./dialects/sqlite.js";
import { migrationProvider } from "./migrations/index.js";

const TABLE = "forgekit_oauth_tokens";

let dir: string;
let db: Kysely<unknown>;
let migrator: Migrator;

const digest = (n: number, kind: string) => `${kind}${String(n).padStart(63, "0")}`;

async function tokenRows(): Promise<unknown[]> {
  return (await sql`select * from forgekit_oauth_tokens order by id`.execute(db)).rows;
}

async function definition(): Promise<string[]> {
  return (await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = ${TABLE} and sql is not null order by name`.execute(db)).rows.map((r) => r.sql);
}

async function sequenceRow(): Promise<unknown[]> {
  return (await sql`select seq from sqlite_sequence where name = ${TABLE}`.execute(db)).rows;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-0017-"));
  const config = sqlite(join(dir, "forgekit.sqlite"));
  db = new Kysely<unknown>({ dialect: config.dialect });
  const all = await migrationProvider(config.traits).getMigrations();
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
  expect((await migrator.migrateTo("0016_event_counts")).error).toBeUndefined();
  for (let n = 1; n <= 3; n++) {
    await sql`insert into forgekit_oauth_tokens (family_id, user_id, access_digest, refresh_digest, scopes, family_created_at, previous_id, created_at)
      values (${"family-a"}, ${7}, ${digest(n, "a")}, ${digest(n, "r")}, ${"api"}, ${1000}, ${n === 1 ? null : n - 1}, ${1000 + n})`.execute(db);
  }
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("0017_oauth_token_rowid (SQLite)", () => {
  it("keeps every token row with its id, drops AUTOINCREMENT and the sqlite_sequence row, and keeps the indexes", async () => {
    const before = await tokenRows();
    const [table, ...indexes] = await definition();
    expect(table).toMatch(/"id" integer primary key autoincrement/);
    expect(await sequenceRow()).toEqual([{ seq: 3 }]);

    expect((await migrator.migrateTo("0017_oauth_token_rowid")).error).toBeUndefined();
    expect(await tokenRows()).toEqual(before);
    const after = await definition();
    expect(after[0]).toBe(table?.replace(" autoincrement", ""));
    expect(after.slice(1)).toEqual(indexes);
    expect(await sequenceRow()).toEqual([]);
    // The unique digests still hold, and the next id follows the largest.
    await expect(sql`insert into forgekit_oauth_tokens (family_id, user_id, access_digest, scopes, family_created_at, created_at) values ('f', 7, ${digest(1, "a")}, 'api', 1, 1)`.execute(db)).rejects.toThrow(/UNIQUE/);
    await sql`insert into forgekit_oauth_tokens (family_id, user_id, access_digest, scopes, family_created_at, created_at) values ('f', 7, ${digest(4, "a")}, 'api', 1, 1)`.execute(db);
    expect((await sql<{ id: number }>`select max(id) as id from forgekit_oauth_tokens`.execute(db)).rows).toEqual([{ id: 4 }]);
  });

  it("going down restores AUTOINCREMENT and keeps the rows", async () => {
    const before = await tokenRows();
    const original = await definition();
    expect((await migrator.migrateTo("0017_oauth_token_rowid")).error).toBeUndefined();
    expect((await migrator.migrateTo("0016_event_counts")).error).toBeUndefined();
    expect(await definition()).toEqual(original);
    expect(await tokenRows()).toEqual(before);
  });
});
