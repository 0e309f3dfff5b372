/**
 * 0039_user_last_activity on a SQLite database that already holds users: they keep every field and
 * have no activity day until their next request; the day can then be recorded and listed; down
 * removes the column and its index and keeps the users.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite } from "./dialects/sqlite.js";
import { MIGRATION_NAMES, migrationProvider } from "./migrations/index.js";
import { kyselyStore } from "./store.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
const NAME = "0039_user_last_activity";
let dir: string;
let file: string;
let db: Kysely<unknown>;
let migrator: Migrator;
let userId: number;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-0039-"));
  file = join(dir, "forgekit.sqlite");
  const config = sqlite(file);
  db = new Kysely<unknown>({ dialect: config.dialect });
  const all = await migrationProvider(config.traits).getMigrations();
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
  const before = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(NAME) - 1];
  if (before === undefined) throw new Error(`${NAME} is not shipped`);
  expect((await migrator.migrateTo(before)).error).toBeUndefined();
  // A user written by the store as it was before 0039 (its insert names no activity column).
  const store = kyselyStore(sqlite(file));
  userId = (await store.users.create({ username: "u", name: "U", externalId: "host-u" }, T0))!.id;
  await store.close();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const columns = async () => (await sql<{ name: string }>`select name from pragma_table_info('forgekit_users')`.execute(db)).rows.map((r) => r.name);
const indexes = async () => (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'forgekit_users'`.execute(db)).rows.map((r) => r.name);

describe(`${NAME} (SQLite)`, () => {
  it("existing users keep their fields and have no day; the day is then recorded and listed", async () => {
    expect((await migrator.migrateTo(NAME)).error).toBeUndefined();
    expect(await columns()).toContain("last_activity_on");
    expect(await indexes()).toContain("forgekit_users_last_activity");
    const store = kyselyStore(sqlite(file));
    try {
      expect(await store.users.findById(userId)).toMatchObject({ username: "u", externalId: "host-u", lastActivityOn: null, createdAt: T0 });
      expect(await store.users.recordActivity(userId, "2026-03-01")).toBe(true);
      const listed = await store.users.list({ activeSince: "2026-03-01", orderBy: "last_activity_on" }, { kind: "offset", page: 1, perPage: 20 });
      expect(listed.items.map((u) => [u.username, u.lastActivityOn])).toEqual([["u", "2026-03-01"]]);
    } finally {
      await store.close();
    }
  });

  it("down drops the column and its index and keeps the users", async () => {
    expect((await migrator.migrateTo(NAME)).error).toBeUndefined();
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await columns()).not.toContain("last_activity_on");
    expect(await indexes()).not.toContain("forgekit_users_last_activity");
    expect((await sql<{ username: string }>`select username from forgekit_users`.execute(db)).rows).toEqual([{ username: "u" }]);
  });
});
