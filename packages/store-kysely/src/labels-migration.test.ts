/**
 * 0020_labels on a SQLite database that already holds labels on issues: the labels table is
 * rebuilt (project_id nullable, group_id added) and keeps every label with its id, and every label
 * link survives the rebuild (dropping the old table deletes them by cascade; the migration puts
 * them back).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite } from "./dialects/sqlite.js";
import { migrationProvider } from "./migrations/index.js";
import { kyselyStore } from "./store.js";

const T0 = new Date("2026-03-01T12:00:00.000Z");
let dir: string;
let db: Kysely<unknown>;
let migrator: Migrator;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-0018-"));
  const config = sqlite(join(dir, "forgekit.sqlite"));
  db = new Kysely<unknown>({ dialect: config.dialect });
  const all = await migrationProvider(config.traits).getMigrations();
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(all) }, migrationTableName: "forgekit_migrations", migrationLockTableName: "forgekit_migrations_lock" });
  expect((await migrator.migrateTo("0019_commit_statuses")).error).toBeUndefined();
  // Rows written by the store as it was before 0020 (project labels linked to an issue and a merge request).
  const store = kyselyStore(sqlite(join(dir, "forgekit.sqlite")));
  const user = await store.users.create({ username: "u", name: "U" }, T0);
  const group = await store.namespaces.create({ kind: "group", path: "g", name: "g", parentId: null, ownerId: null, visibility: "private" }, T0);
  // The project row as the schema of 0019 holds it (today's store writes columns later migrations add).
  const at = T0.toISOString();
  await (db as Kysely<{ forgekit_projects: Record<string, unknown> }>)
    .insertInto("forgekit_projects")
    .values({ id: 1, namespace_id: group!.id, path: "p", path_lower: "p", name: "p", name_lower: "p", full_path: "g/p", full_path_lower: "g/p", description: "", visibility: "private", creator_id: null, repository_storage: "default", repository_read_only: 0, default_branch: null, created_at: at, updated_at: at, last_activity_at: at })
    .execute();
  const project = { id: 1 };
  const issue = await store.activity.issues.create({ projectId: project.id, title: "t", description: "", confidential: false, authorId: user!.id }, T0);
  for (const name of ["bug", "docs"]) {
    const label = await store.imports.labels.create({ projectId: project.id, name, color: "#112233", description: name }, T0);
    await store.imports.labels.link(label!.id, "Issue", issue.id);
    await store.imports.labels.link(label!.id, "MergeRequest", 99);
  }
  await store.close();
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("0020_labels (SQLite)", () => {
  it("keeps every label with its id and every label link across the rebuild; group labels can then be stored", async () => {
    const labels = async () => (await sql`select id, project_id, name, color, description from forgekit_labels order by id`.execute(db)).rows;
    const links = async () => (await sql`select * from forgekit_label_links order by label_id, target_type`.execute(db)).rows;
    const [labelsBefore, linksBefore] = [await labels(), await links()];
    expect(linksBefore).toHaveLength(4);
    expect((await migrator.migrateTo("0020_labels")).error).toBeUndefined();
    expect(await labels()).toEqual(labelsBefore);
    expect(await links()).toEqual(linksBefore);
    expect((await sql`select count(*) as n from sqlite_master where name = 'forgekit_label_links_saved'`.execute(db)).rows).toEqual([{ n: 0 }]);
    await sql`insert into forgekit_labels (group_id, name, color, description, created_at, updated_at) values (1, 'bug', '#000000', '', 0, 0)`.execute(db);
    expect((await sql`select project_id, group_id from forgekit_labels where name = 'bug' order by id`.execute(db)).rows).toEqual([{ project_id: 1, group_id: null }, { project_id: null, group_id: 1 }]);
  });
});
