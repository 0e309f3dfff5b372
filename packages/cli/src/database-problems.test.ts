/**
 * Database problems as the CLI, the demo host and `fk.migrate()` report them (forgekit issue 8):
 * the cause and a hint, never a password; and commands other than `migrate` / `seed-demo` never
 * create a missing SQLite database or its folders. SQLite always; PostgreSQL and MySQL through
 * FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createForgekit } from "@forgekit/core";
import { kyselyStore, sqlite } from "@forgekit/store-kysely";
import { createConnection } from "mysql2/promise";
import { afterAll, describe, expect, it, vi } from "vitest";
import { commands } from "./commands/index.js";
import { runDemoMain, startDemoHost, type DemoApp } from "./demo-host.js";
import { cliSandbox } from "./test-support.js";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());
const PASSWORD = "pw-Secret-4412";
const random = () => Math.random().toString(36).slice(2, 10);
const noApp: DemoApp = () => (_req, res) => void res.end();

/** A command line for `command` with every required positional and option filled in. */
function minimalArgv(name: string): string[] {
  const command = commands.find((c) => c.name === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  const positionals = (command.positionals ?? []).filter((p) => p.optional !== true).map(() => "x");
  const options = Object.entries(command.options ?? {}).flatMap(([option, spec]) => (spec.required === true ? [`--${option}`, "x"] : []));
  return [...name.split(" "), ...positionals, ...options];
}

/** The error a `--json` run printed on stderr. */
const jsonError = (stderr: string) => (JSON.parse(stderr) as { error: { code: string; problem?: string; message: string; hint?: string } }).error;

describe("commands on a missing SQLite database", () => {
  // Standalone commands (openapi, routes) never open a database: their own test checks none is created.
  const usesOnly = commands.filter((c) => c.createsDatabase !== true && c.standalone !== true).map((c) => c.name);

  it("only migrate and seed-demo may create a database; the list, show and other commands are many", () => {
    expect(commands.filter((c) => c.createsDatabase === true).map((c) => c.name)).toEqual(["migrate", "seed-demo"]);
    for (const readOnly of ["users list", "tokens list", "apps list", "events list", "issues list", "errors list", "errors events", "iterations list", "notifications show", "notifications recipients"]) {
      expect(usesOnly).toContain(readOnly);
    }
  });

  it("every other command says the database does not exist and how to create it, and leaves no file or folder behind", async () => {
    const folder = join(sandbox.dir, "never-created");
    const path = join(folder, "nested", "forgekit.db");
    for (const name of usesOnly) {
      const run = await sandbox.runRaw(["--database", path, ...minimalArgv(name)]);
      expect(run.code, name).toBe(1);
      expect(run.stderr, name).toBe(
        `error: the SQLite database ${path} does not exist\nhint: create it with \`forgekit migrate\` (or \`forgekit seed-demo\` for the quick start with demo data), or point --database / DATABASE_URL at an existing database\n`,
      );
      expect(existsSync(folder), name).toBe(false);
    }
  });

  it("the default ./data/forgekit.db is not created by a read-only command either, and --json puts the problem on stderr", async () => {
    const dir = join(sandbox.dir, "fresh-cwd");
    mkdirSync(dir);
    const before = readdirSync(sandbox.dir);
    const run = await sandbox.runRaw(["--json", "users", "list", "--database", join(dir, "data", "forgekit.db")]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(jsonError(run.stderr)).toEqual({
      code: "database",
      problem: "file_missing",
      message: `the SQLite database ${join(dir, "data", "forgekit.db")} does not exist`,
      hint: expect.stringContaining("`forgekit migrate`"),
    });
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(sandbox.dir)).toEqual(before);
  });

  it("an existing folder gets no file either", async () => {
    const path = join(sandbox.dir, "absent.db");
    const run = await sandbox.runRaw(["--database", path, "apps", "list"]);
    expect(run.code).toBe(1);
    expect(existsSync(path)).toBe(false);
  });
});

describe("SQLite problems in the CLI", () => {
  it("a database never migrated: 'run `forgekit migrate`', not 'internal error: no such table'", async () => {
    const path = join(sandbox.dir, "empty.db");
    writeFileSync(path, ""); // an empty file is an empty SQLite database
    const run = await sandbox.runRaw(["--database", path, "users", "list"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: the database ${path} has not been migrated: no such table: forgekit_`);
    expect(run.stderr).toContain("hint: run `forgekit migrate`");
    expect(run.stderr).not.toContain("internal error");
    const json = await sandbox.runRaw(["--database", path, "--json", "apps", "list"]);
    expect(jsonError(json.stderr)).toMatchObject({ code: "internal", problem: "not_migrated", hint: expect.stringContaining("`forgekit migrate`") });
  });

  it("a file of random bytes: not an SQLite database or corrupt, for migrate and for a read-only command", async () => {
    const path = join(sandbox.dir, "random.db");
    writeFileSync(path, randomBytes(8192));
    for (const argv of [["migrate"], ["users", "list"]]) {
      const run = await sandbox.runRaw(["--database", path, ...argv]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: ${path} is not an SQLite database or is corrupt (SQLITE_NOTADB`);
      expect(run.stderr).toContain("hint: point the database URL at the right file; or move this file aside");
    }
  });

  it("a folder where the file should be, and a file where a folder should be", async () => {
    const folder = join(sandbox.dir, "a-folder.db");
    mkdirSync(folder);
    const onFolder = await sandbox.runRaw(["--database", folder, "migrate"]);
    expect(onFolder.stderr).toContain(`error: cannot open the SQLite database ${folder}: it is a folder, not a file`);
    const file = join(sandbox.dir, "in-the-way");
    writeFileSync(file, "x");
    const underFile = await sandbox.runRaw(["--database", join(file, "db", "forgekit.db"), "migrate"]);
    expect(underFile.code).toBe(1);
    expect(underFile.stderr).toContain(`${file} is a file, not a folder`);
    expect(underFile.stderr).toContain("hint: choose a database path whose folders can be created");
  });
});

describe("start-up of the demo host and of a host calling fk.migrate()", () => {
  it("the demo host rejects with the cause and the hint", async () => {
    const path = join(sandbox.dir, "demo-random.db");
    writeFileSync(path, randomBytes(8192));
    await expect(startDemoHost({ port: 0, database: path, host: "127.0.0.1" }, noApp)).rejects.toThrow(
      new RegExp(`^migration failed: ${path.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not an SQLite database or is corrupt \\(SQLITE_NOTADB[^\\n]*\\nhint: point the database URL`),
    );
  });

  it("the demo host explains a database folder it cannot create", async () => {
    const file = join(sandbox.dir, "demo-in-the-way");
    writeFileSync(file, "x");
    await expect(startDemoHost({ port: 0, database: join(file, "data", "forgekit.db"), host: "127.0.0.1" }, noApp)).rejects.toThrow(
      `opening the database failed: cannot create the folder ${join(file, "data")} for the SQLite database: ${file} is a file, not a folder\nhint: choose a database path`,
    );
  });

  it("runDemoMain prints them and exits 1", async () => {
    const path = join(sandbox.dir, "main-random.db");
    writeFileSync(path, randomBytes(8192));
    const printed: string[] = [];
    const error = vi.spyOn(console, "error").mockImplementation((text: string) => void printed.push(text));
    const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    const env = { PORT: process.env["PORT"], DATABASE_URL: process.env["DATABASE_URL"] };
    process.env["PORT"] = "0";
    process.env["DATABASE_URL"] = path;
    try {
      await expect(runDemoMain((options) => startDemoHost({ ...options, host: "127.0.0.1" }, noApp), "unused.db")).rejects.toThrow("exit 1");
    } finally {
      error.mockRestore();
      exit.mockRestore();
      for (const [name, value] of Object.entries(env)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(printed.join("\n")).toMatch(/^forgekit example failed to start: migration failed: .* is not an SQLite database or is corrupt .*\nhint: point the database URL/s);
  });

  it("fk.migrate()'s error carries a message with the cause and the hint, not only `internal`", async () => {
    const path = join(sandbox.dir, "host-random.db");
    writeFileSync(path, randomBytes(8192));
    const store = kyselyStore(sqlite(path));
    const fk = createForgekit({ baseUrl: "http://localhost", store });
    const migrated = await fk.migrate();
    await store.close();
    expect(migrated.isErr()).toBe(true);
    const cause = migrated.isErr() && migrated.error.code === "internal" ? (migrated.error.cause as Error) : undefined;
    expect(cause?.message).toMatch(/is not an SQLite database or is corrupt \(SQLITE_NOTADB.*\(hint: point the database URL at the right file/);
    expect((cause as { hint?: string } | undefined)?.hint).toContain("`forgekit migrate`");
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function variant(url: string, change: { user?: string; password?: string; host?: string; port?: number; database?: string }): string {
  const next = new URL(url);
  if (change.user !== undefined) next.username = change.user;
  if (change.password !== undefined) next.password = change.password;
  if (change.host !== undefined) next.hostname = change.host;
  if (change.port !== undefined) next.port = String(change.port);
  if (change.database !== undefined) next.pathname = `/${change.database}`;
  return next.toString();
}

const servers = [
  { name: "PostgreSQL", url: process.env["FORGEKIT_TEST_POSTGRES_URL"], dialect: "postgres" as const },
  { name: "MySQL", url: process.env["FORGEKIT_TEST_MYSQL_URL"]?.replace(/^mariadb:/i, "mysql:"), dialect: "mysql" as const },
];

for (const { name, url, dialect } of servers) {
  describe.skipIf(url === undefined)(`${name} problems in the CLI and the demo host`, () => {
    const base = url ?? "";

    /** Runs `argv` against `location` as text and as --json; checks both for `expected` and no password. */
    async function expectProblem(location: string, argv: string[], expected: { problem: string; cause: string; hint: string }): Promise<void> {
      const text = await sandbox.runRaw(["--database", location, ...argv]);
      expect(text.code).toBe(1);
      expect(text.stderr).toMatch(/^error: /);
      expect(text.stderr).toContain(expected.cause);
      expect(text.stderr).toContain(`\nhint: ${expected.hint}`);
      expect(text.stderr).not.toContain(PASSWORD);
      const json = await sandbox.runRaw(["--database", location, "--json", ...argv]);
      expect(json.code).toBe(1);
      expect(json.stdout).toBe("");
      expect(json.stderr).not.toContain(PASSWORD);
      const error = jsonError(json.stderr);
      expect(error.problem).toBe(expected.problem);
      expect(error.message).toContain(expected.cause);
      expect(error.hint).toContain(expected.hint);
    }

    it("a wrong port: 'is the server running on host:port?'", async () => {
      const port = await closedPort();
      const location = variant(base, { host: "127.0.0.1", port, password: PASSWORD });
      for (const argv of [["migrate"], ["users", "list"]]) {
        await expectProblem(location, argv, {
          problem: "connection_refused",
          cause: `connection refused: nothing is listening on 127.0.0.1:${port} (${dialect}://`,
          hint: `is the ${name} server running on 127.0.0.1:${port}?`,
        });
      }
      await expect(startDemoHost({ port: 0, database: location, host: "127.0.0.1" }, noApp)).rejects.toThrow(`\nhint: is the ${name} server running on 127.0.0.1:${port}?`);
    });

    it("a missing database: the command that creates it", async () => {
      const database = `forgekit_missing_${random()}`;
      // MySQL checks the password before the database (root has none here); PostgreSQL trusts.
      const location = variant(base, dialect === "postgres" ? { database, password: PASSWORD } : { database });
      const host = new URL(base).hostname;
      await expectProblem(location, ["migrate"], {
        problem: "database_missing",
        cause: `database "${database}" does not exist on the ${name} server at ${host}:`,
        hint: dialect === "postgres" ? `create it with \`createdb -h ${host} -p ` : `create it: \`CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;\``,
      });
      const started = startDemoHost({ port: 0, database: location, host: "127.0.0.1" }, noApp);
      await expect(started).rejects.toThrow(dialect === "postgres" ? /\nhint: create it with `createdb .*forgekit_missing_/ : /\nhint: create it: `CREATE DATABASE forgekit_missing_/);
      await expect(started).rejects.not.toThrow(PASSWORD);
    });

    it("a bad user: the login is refused", async () => {
      const user = `nouser_${random()}`;
      const location = variant(base, { user, password: PASSWORD });
      await expectProblem(location, ["users", "list"], {
        problem: "access_denied",
        cause: `refused the login of user "${user}"`,
        hint: "check the user name and password in the database URL",
      });
    });

    it("an unreachable host: unknown host", async () => {
      const location = variant(base, { host: "nonexistent.invalid", password: PASSWORD });
      await expectProblem(location, ["migrate"], {
        problem: "host_not_found",
        cause: `unknown host "nonexistent.invalid" (ENOTFOUND)`,
        hint: `check the host name in the database URL`,
      });
    });

    it("a database never migrated: run `forgekit migrate`", async () => {
      if (dialect === "postgres") {
        // A search path naming a schema that does not exist: forgekit's tables are not found.
        const location = `${variant(base, { password: PASSWORD })}?options=${encodeURIComponent(`-c search_path=forgekit_none_${random()}`)}`;
        await expectProblem(location, ["tokens", "list"], { problem: "not_migrated", cause: "has not been migrated", hint: "run `forgekit migrate`" });
        return;
      }
      const database = `forgekit_empty_${random()}`;
      const admin = await createConnection({ uri: base });
      await admin.query(`create database \`${database}\``);
      try {
        await expectProblem(variant(base, { database }), ["tokens", "list"], { problem: "not_migrated", cause: "has not been migrated", hint: "run `forgekit migrate`" });
      } finally {
        await admin.query(`drop database if exists \`${database}\``);
        await admin.end();
      }
    });
  });
}
