/**
 * 0027_note_discussions on a SQLite database that already holds notes: every note gets a discussion
 * id of its own (40 hex digits, the same on a rerun), stays a plain note (type NULL), and the
 * discussion index exists; going down drops the columns and keeps the notes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite } from "./dialects/sqlite.js";
import { migrationProvider } from "./migrations/index.js";
import { legacyDiscussionId } from "./migrations/0027-note-discussions.js";

let dir: string;
let db: Kysely<unknown>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-0027-"));
  const config = sqlite(join(dir, "forgekit.sqlite"));
  db = new Kysely<unknown>({ dialect: config.dialect });
  const all = await migrationProvider(config.traits).getMigrations();
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
  expect((await migrator.migrateTo("0026_protected_refs")).error).toBeUndefined();
  // The notes alone matter here: their issue, project and author rows are left out.
  await sql`pragma foreign_keys = off`.execute(db);
  for (let n = 1; n <= 3; n++) {
    await sql`insert into forgekit_notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at, updated_at) values (${1}, ${"Issue"}, ${1}, ${1}, ${`note ${n}`}, ${0}, ${1000 + n}, ${1000 + n})`.execute(db);
  }
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("0027_note_discussions (SQLite)", () => {
  it("gives every existing note a discussion of its own: 40 hex digits derived from its id, type NULL, unresolved", async () => {
    expect((await migrator.migrateTo("0027_note_discussions")).error).toBeUndefined();
    const rows = (await sql<{ id: number; discussion_id: string; type: string | null; resolved_at: unknown }>`select id, discussion_id, type, resolved_at from forgekit_notes order by id`.execute(db)).rows;
    expect(rows.map((r) => r.discussion_id)).toEqual([1, 2, 3].map(legacyDiscussionId));
    expect(new Set(rows.map((r) => r.discussion_id)).size).toBe(3);
    for (const row of rows) {
      expect(row.discussion_id).toMatch(/^[0-9a-f]{40}$/);
      expect(row).toMatchObject({ type: null, resolved_at: null });
    }
    const indexes = (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'forgekit_notes'`.execute(db)).rows.map((r) => r.name);
    expect(indexes).toContain("forgekit_notes_discussion");
  });

  it("going down drops the discussion columns and keeps the notes", async () => {
    expect((await migrator.migrateTo("0027_note_discussions")).error).toBeUndefined();
    expect((await migrator.migrateTo("0026_protected_refs")).error).toBeUndefined();
    const columns = (await sql<{ name: string }>`pragma table_info(forgekit_notes)`.execute(db)).rows.map((r) => r.name);
    expect(columns).not.toContain("discussion_id");
    expect((await sql`select body from forgekit_notes order by id`.execute(db)).rows).toEqual([{ body: "note 1" }, { body: "note 2" }, { body: "note 3" }]);
  });
});
