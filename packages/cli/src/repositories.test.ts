/**
 * The CLI's repository shards: `default` and `secondary` under repositories/ next to the SQLite
 * file, or in a PostgreSQL or MySQL database's own folder under ./data.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConnection } from "mysql2/promise";
import { afterAll, describe, expect, it } from "vitest";
import { hashedRepositoryPath } from "@forgekit/core";
import { repositoryStorages, serverDataFolder, type DatabaseTarget } from "./database.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

describe("repository shards of the CLI", () => {
  it("are default and secondary next to an SQLite file, in the server database's own folder under ./data otherwise", () => {
    expect(repositoryStorages({ kind: "sqlite", path: "/srv/forge/forgekit.db" }, "/cwd")).toEqual({
      default: { path: "/srv/forge/repositories/default" },
      secondary: { path: "/srv/forge/repositories/secondary" },
    });
    const folder = serverDataFolder({ kind: "postgres", url: "postgres://x/y" }, "/cwd");
    expect(folder).toMatch(/^\/cwd\/data\/postgres-x-y-[0-9a-f]{10}$/);
    expect(repositoryStorages({ kind: "postgres", url: "postgres://x/y" }, "/cwd")).toEqual({
      default: { path: `${folder}/repositories/default` },
      secondary: { path: `${folder}/repositories/secondary` },
    });
    const memory = repositoryStorages({ kind: "sqlite", path: ":memory:" }, "/cwd");
    expect(memory["default"]?.path.startsWith(tmpdir())).toBe(true);
  });

  it("never share a folder between the default SQLite demo, PostgreSQL and MySQL databases run from one directory", () => {
    const targets: DatabaseTarget[] = [
      { kind: "sqlite", path: "/cwd/data/forgekit.db" },
      { kind: "postgres", url: "postgres://postgres@127.0.0.1:5432/test" },
      { kind: "postgres", url: "postgres://postgres@127.0.0.1:5432/other" },
      { kind: "postgres", url: "postgres://postgres@127.0.0.1:5433/test" },
      { kind: "postgres", url: "postgres://someone@127.0.0.1:5432/test" },
      { kind: "mysql", url: "mysql://root@127.0.0.1:3306/test" },
    ];
    const roots = targets.map((target) => repositoryStorages(target, "/cwd")["default"]?.path ?? "");
    expect(new Set(roots).size).toBe(roots.length);
    for (const root of roots) for (const other of roots) if (root !== other) expect(root.startsWith(`${other}/`)).toBe(false);
  });

  it("keep a database's folder when only its password changes", () => {
    const folder = (url: string) => serverDataFolder({ kind: "mysql", url }, "/cwd");
    expect(folder("mysql://root:one@db:3306/forge")).toBe(folder("mysql://root:two@db:3306/forge"));
    expect(folder("mysql://root:one@db:3306/forge")).not.toBe(folder("mysql://root:one@db:3306/other"));
  });

  it("a project created with the CLI has its bare repository on the shard it names", async () => {
    expect((await sandbox.run("migrate")).code).toBe(0);
    expect((await sandbox.run("users", "create", "--username", "ann", "--name", "Ann", "--email", "ann@example.com")).code).toBe(0);
    const made = await sandbox.run("--json", "projects", "create", "--namespace", "ann", "--name", "Far", "--repository-storage", "secondary");
    expect(made.code).toBe(0);
    const project = made.json<{ id: number; repository_storage: string }>();
    expect(project.repository_storage).toBe("secondary");
    const path = join(sandbox.dir, "repositories", "secondary", hashedRepositoryPath({ kind: "project", id: project.id }));
    expect(execFileSync("git", [`--git-dir=${path}`, "rev-parse", "--is-bare-repository"], { encoding: "utf8" }).trim()).toBe("true");
    expect(existsSync(join(sandbox.dir, "repositories", "default", hashedRepositoryPath({ kind: "project", id: project.id })))).toBe(false);
    const unknown = await sandbox.run("projects", "create", "--namespace", "ann", "--name", "Nowhere", "--repository-storage", "tertiary");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("repository_storage");
  });
});

const mysqlUrl = process.env["FORGEKIT_TEST_MYSQL_URL"]?.replace(/^mariadb:/i, "mysql:");

describe.skipIf(mysqlUrl === undefined || mysqlUrl === "")("the default SQLite demo and a MySQL demo in one directory", () => {
  it("seed their repositories apart: nothing of either is moved to +orphaned/", async () => {
    const database = `forgekit_shards_${randomBytes(6).toString("hex")}`;
    const admin = async (statement: string) => {
      const connection = await createConnection(mysqlUrl ?? "");
      await connection.query(statement).finally(() => connection.end());
    };
    await admin(`CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const url = new URL(mysqlUrl ?? "");
    url.pathname = `/${database}`;
    const local = cliSandbox();
    try {
      // Both with DATABASE_URL only, as the quick start is run: ./data/forgekit.db, then MySQL, then SQLite again.
      expect((await local.runRaw(["seed-demo"])).code).toBe(0);
      expect((await local.runRaw(["seed-demo"], { DATABASE_URL: url.toString() })).code).toBe(0);
      expect((await local.runRaw(["seed-demo"])).code).toBe(0);
      const listing = (path: string) => (existsSync(path) ? readdirSync(path) : []);
      const sqlite = repositoryStorages({ kind: "sqlite", path: join(local.dir, "data", "forgekit.db") }, local.dir);
      const server = repositoryStorages({ kind: "mysql", url: url.toString() }, local.dir);
      for (const { path } of [...Object.values(sqlite), ...Object.values(server)]) expect(listing(path)).not.toContain("+orphaned");
      expect(listing(sqlite["default"]?.path ?? "").length).toBeGreaterThan(0);
      expect(listing(server["default"]?.path ?? "").length).toBeGreaterThan(0);
    } finally {
      local.cleanup();
      await admin(`DROP DATABASE IF EXISTS ${database}`);
    }
  });
});
