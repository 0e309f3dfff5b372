/**
 * 0018_project_features on a SQLite database migrated to 0017 that already holds projects: every
 * project keeps its features enabled (as they worked before) with `repository_empty` and
 * `readme_path` unknown, and
 * the owner of each personal project becomes its Owner member — once (a membership the owner
 * already had is kept), never for group projects.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite } from "./dialects/sqlite.js";
import { migrationProvider } from "./migrations/index.js";

let dir: string;
let db: Kysely<unknown>;
let migrator: Migrator;

async function user(id: number, username: string) {
  await sql`insert into forgekit_users (id, username, username_lower, name, name_lower, state, admin, bot, two_factor_enabled, private_profile, avatar_url, password_hash, namespace_id, created_at, updated_at)
    values (${id}, ${username}, ${username}, ${username}, ${username}, 'active', 0, null, 0, 0, null, null, null, 1000, 1000)`.execute(db);
}
async function namespace(id: number, kind: "user" | "group", path: string, ownerId: number | null) {
  await sql`insert into forgekit_namespaces (id, kind, path, path_lower, name, name_lower, full_path, full_path_lower, parent_id, owner_id, visibility, description, created_at, updated_at)
    values (${id}, ${kind}, ${path}, ${path}, ${path}, ${path}, ${path}, ${path}, null, ${ownerId}, 'private', '', 1000, 1000)`.execute(db);
}
async function project(id: number, namespaceId: number, path: string) {
  await sql`insert into forgekit_projects (id, namespace_id, path, path_lower, name, name_lower, full_path, full_path_lower, description, visibility, creator_id, repository_storage, repository_read_only, default_branch, created_at, updated_at, last_activity_at)
    values (${id}, ${namespaceId}, ${path}, ${path}, ${path}, ${path}, ${`ns/${path}`}, ${`ns/${path}`}, '', 'private', null, 'default', 0, null, 2000, 2000, 2000)`.execute(db);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-0018-"));
  const config = sqlite(join(dir, "forgekit.sqlite"));
  db = new Kysely<unknown>({ dialect: config.dialect });
  const all = await migrationProvider(config.traits).getMigrations();
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
  expect((await migrator.migrateTo("0017_oauth_token_rowid")).error).toBeUndefined();
  await user(1, "alice");
  await user(2, "bob");
  await namespace(10, "user", "alice", 1);
  await namespace(11, "user", "bob", 2);
  await namespace(12, "group", "grp", null);
  await project(100, 10, "alices");
  await project(101, 11, "bobs");
  await project(102, 12, "groups");
  // bob already is a (Developer) member of his own project: kept, not duplicated.
  await sql`insert into forgekit_members (source_type, source_id, user_id, access_level, expires_at, created_at) values ('project', 101, 2, 30, null, 1500)`.execute(db);
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("0018_project_features (SQLite, from 0017 with data)", () => {
  it("existing projects: features enabled (20), repository_empty and readme_path unknown (null)", async () => {
    expect((await migrator.migrateTo("0018_project_features")).error).toBeUndefined();
    const rows = (await sql`select id, issues_access_level, merge_requests_access_level, repository_access_level, snippets_access_level, repository_empty, readme_path from forgekit_projects order by id`.execute(db)).rows;
    expect(rows).toEqual([100, 101, 102].map((id) => ({ id, issues_access_level: 20, merge_requests_access_level: 20, repository_access_level: 20, snippets_access_level: 20, repository_empty: null, readme_path: null })));
  });

  it("the owner of each personal project becomes its Owner member, once; group projects get none", async () => {
    expect((await migrator.migrateTo("0018_project_features")).error).toBeUndefined();
    const members = (await sql`select source_id, user_id, access_level, created_at from forgekit_members where source_type = 'project' order by source_id, user_id`.execute(db)).rows;
    expect(members).toEqual([
      { source_id: 100, user_id: 1, access_level: 50, created_at: 2000 },
      { source_id: 101, user_id: 2, access_level: 30, created_at: 1500 },
    ]);
  });

  it("going down drops the columns and keeps the projects", async () => {
    expect((await migrator.migrateTo("0018_project_features")).error).toBeUndefined();
    expect((await migrator.migrateTo("0017_oauth_token_rowid")).error).toBeUndefined();
    const columns = (await sql<{ name: string }>`select name from pragma_table_info('forgekit_projects')`.execute(db)).rows.map((r) => r.name);
    expect(columns).not.toContain("repository_empty");
    expect(columns).not.toContain("issues_access_level");
    expect(columns).not.toContain("readme_path");
    expect((await sql`select id from forgekit_projects order by id`.execute(db)).rows).toEqual([{ id: 100 }, { id: 101 }, { id: 102 }]);
  });
});
