/**
 * 0021_project_features on a database migrated to 0020 that already holds projects (SQLite; also
 * PostgreSQL in its own schema and MySQL in its own database when FORGEKIT_TEST_POSTGRES_URL /
 * FORGEKIT_TEST_MYSQL_URL are set): every project keeps its features enabled (as they worked
 * before) with `repository_empty` and `readme_path` unknown, and the owner of each personal project
 * becomes its Owner member — once (a membership the owner already had is kept), never for group
 * projects; going down drops the columns and keeps the projects.
 */
import { Kysely, Migrator } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrationProvider } from "./migrations/index.js";
import { dialectMatrix, type OpenedDialect } from "./test-databases.js";

for (const [name, open] of dialectMatrix("forgekit-0021-")) {
  describe(`0021_project_features on ${name} (from 0020 with data)`, () => {
    let opened: OpenedDialect;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of an older migration, not today's Database
    let db: Kysely<any>;
    let migrator: Migrator;

    beforeEach(async () => {
      opened = await open();
      const { config } = opened;
      const t = config.traits;
      const base = new Kysely<unknown>({ dialect: config.dialect });
      db = config.schema === undefined ? base : base.withSchema(config.schema);
      const all = await migrationProvider(t).getMigrations();
      migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(all) },
        migrationTableName: "forgekit_migrations",
        migrationLockTableName: "forgekit_migrations_lock",
        ...(config.schema === undefined ? {} : { migrationTableSchema: config.schema }),
      });
      expect((await migrator.migrateTo("0020_labels")).error).toBeUndefined();
      const at = (ms: number) => t.toDate(new Date(ms));
      for (const [id, username] of [[1, "alice"], [2, "bob"]] as const) {
        await db
          .insertInto("forgekit_users")
          .values({ id, username, username_lower: username, name: username, name_lower: username, state: "active", admin: t.toBool(false), bot: null, two_factor_enabled: t.toBool(false), private_profile: t.toBool(false), avatar_url: null, password_hash: null, namespace_id: null, created_at: at(1000), updated_at: at(1000) })
          .execute();
      }
      for (const [id, kind, path, ownerId] of [[10, "user", "alice", 1], [11, "user", "bob", 2], [12, "group", "grp", null]] as const) {
        await db
          .insertInto("forgekit_namespaces")
          .values({ id, kind, path, path_lower: path, name: path, name_lower: path, full_path: path, full_path_lower: path, parent_id: null, owner_id: ownerId, visibility: "private", description: "", created_at: at(1000), updated_at: at(1000) })
          .execute();
      }
      for (const [id, namespaceId, path] of [[100, 10, "alices"], [101, 11, "bobs"], [102, 12, "groups"]] as const) {
        await db
          .insertInto("forgekit_projects")
          .values({ id, namespace_id: namespaceId, path, path_lower: path, name: path, name_lower: path, full_path: `ns/${path}`, full_path_lower: `ns/${path}`, description: "", visibility: "private", creator_id: null, repository_storage: "default", repository_read_only: t.toBool(false), default_branch: null, created_at: at(2000), updated_at: at(2000), last_activity_at: at(2000) })
          .execute();
      }
      // bob already is a (Developer) member of his own project: kept, not duplicated.
      await db.insertInto("forgekit_members").values({ source_type: "project", source_id: 101, user_id: 2, access_level: 30, expires_at: null, created_at: at(1500) }).execute();
    });

    afterEach(async () => {
      await db.destroy();
      await opened.close();
    });

    it("existing projects: features enabled (20), repository_empty and readme_path unknown (null)", async () => {
      expect((await migrator.migrateTo("0021_project_features")).error).toBeUndefined();
      const rows = await db.selectFrom("forgekit_projects").select(["id", "issues_access_level", "merge_requests_access_level", "repository_access_level", "snippets_access_level", "repository_empty", "readme_path"]).orderBy("id").execute();
      expect(rows.map((row) => ({ ...row, id: Number(row.id) }))).toEqual(
        [100, 101, 102].map((id) => ({ id, issues_access_level: 20, merge_requests_access_level: 20, repository_access_level: 20, snippets_access_level: 20, repository_empty: null, readme_path: null })),
      );
    });

    it("the owner of each personal project becomes its Owner member, once; group projects get none", async () => {
      expect((await migrator.migrateTo("0021_project_features")).error).toBeUndefined();
      const rows = await db.selectFrom("forgekit_members").select(["source_id", "user_id", "access_level", "created_at"]).where("source_type", "=", "project").orderBy("source_id").orderBy("user_id").execute();
      const t = opened.config.traits;
      expect(rows.map((row) => [Number(row.source_id), Number(row.user_id), Number(row.access_level), t.fromDate(row.created_at).getTime()])).toEqual([
        [100, 1, 50, 2000],
        [101, 2, 30, 1500],
      ]);
    });

    it("going down drops the columns and keeps the projects", async () => {
      expect((await migrator.migrateTo("0021_project_features")).error).toBeUndefined();
      expect((await migrator.migrateTo("0020_labels")).error).toBeUndefined();
      await expect(db.selectFrom("forgekit_projects").select("readme_path").execute()).rejects.toThrow();
      await expect(db.selectFrom("forgekit_projects").select("issues_access_level").execute()).rejects.toThrow();
      expect((await db.selectFrom("forgekit_projects").select("id").orderBy("id").execute()).map((row) => Number(row.id))).toEqual([100, 101, 102]);
    });
  });
}
