/** `forgekit` usage, help, database selection, migrate and the users commands, on a temporary SQLite file. */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox } from "./test-support.js";
import { MIGRATION_NAMES } from "@forgekit/store-kysely";

const sandbox = cliSandbox();
afterAll(() => sandbox.cleanup());

describe("usage and help", () => {
  it("prints help for --help, help <command> and a command group", async () => {
    const main = await sandbox.runRaw(["--help"]);
    expect(main.code).toBe(0);
    for (const name of ["migrate", "seed-demo", "users create", "users set-admin", "groups create", "projects create", "members add", "tokens create", "tokens revoke"]) {
      expect(main.stdout).toContain(name);
    }
    const command = await sandbox.runRaw(["help", "tokens", "create"]);
    expect(command.code).toBe(0);
    expect(command.stdout).toContain("Usage: forgekit tokens create --kind <kind> --name <name> --scopes <scopes>");
    const group = await sandbox.runRaw(["users", "--help"]);
    expect(group).toMatchObject({ code: 0 });
    expect(group.stdout).toContain("users unblock");
  });

  it("exits 2 with the help on stderr when no command is given", async () => {
    const bare = await sandbox.runRaw([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toContain("Usage: forgekit");
    expect((await sandbox.runRaw(["users"])).code).toBe(2);
  });

  it("exits 2 with a clear message on bad usage", async () => {
    const unknown = await sandbox.run("frobnicate");
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toContain('error: unknown command "frobnicate"');
    const option = await sandbox.run("users", "create", "--username", "x", "--bogus");
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/error: Unknown option '--bogus'/);
    expect(option.stderr).toContain("usage: forgekit users create");
    const missing = await sandbox.run("users", "create", "--username", "x", "--name", "X");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: missing required option --email");
    const scheme = await sandbox.runRaw(["--database", "redis://localhost", "migrate"]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toContain('unsupported database URL scheme "redis://"');
  });

  it("suggests the closest command or option for a misspelt one", async () => {
    expect((await sandbox.run("migrat")).stderr).toContain('error: unknown command "migrat" (did you mean "migrate"?)');
    expect((await sandbox.run("users", "creat")).stderr).toContain('(did you mean "users create"?)');
    const option = await sandbox.run("users", "create", "--usernme", "x");
    expect(option.stderr).toContain("error: Unknown option '--usernme' (did you mean --username?)");
    // Nothing close: no guess.
    expect((await sandbox.run("frobnicate")).stderr).not.toContain("did you mean");
  });

  it("writes usage errors as JSON on stderr with --json", async () => {
    const option = await sandbox.run("--json", "users", "create", "--username", "x", "--bogus");
    expect(option).toMatchObject({ code: 2, stdout: "" });
    expect(JSON.parse(option.stderr)).toEqual({
      error: { code: "usage", message: "Unknown option '--bogus'", usage: expect.stringContaining("forgekit users create") as unknown, help: "forgekit users create --help" },
    });
    const command = await sandbox.run("--json", "frobnicate");
    expect(JSON.parse(command.stderr)).toEqual({ error: { code: "usage", message: 'unknown command "frobnicate"', help: "forgekit --help" } });
    const missing = await sandbox.run("users", "create", "--json", "--username", "x", "--name", "X");
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { code: "usage", message: "missing required option --email" } });
  });

  it("exits 1 when the database cannot be opened", async () => {
    writeFileSync(join(sandbox.dir, "plain-file"), "not a directory");
    const result = await sandbox.runRaw(["--database", join(sandbox.dir, "plain-file", "x.db"), "migrate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
  });
});

describe("database selection and migrate", () => {
  it("migrates idempotently, saying what it applied", async () => {
    const first = await sandbox.runRaw(["--database", "fresh.db", "migrate"]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    // Each migration prints a line as it starts and as it finishes (not a terminal), then the summary.
    const lines = first.stdout.trimEnd().split("\n");
    expect(lines.slice(0, -2).filter((line) => line.startsWith("migration "))).toHaveLength(2 * MIGRATION_NAMES.length);
    expect(lines.slice(-2)).toEqual([`applied ${MIGRATION_NAMES.length} migrations: ${MIGRATION_NAMES.join(", ")}`, "database schema is up to date"]);
    const again = await sandbox.runRaw(["--database", "fresh.db", "migrate"]);
    expect(again.stdout).toBe("database schema is up to date: nothing to apply\n");
    const json = await sandbox.runRaw(["--database", "fresh.db", "--json", "migrate"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ migrated: true, applied: [] });
  });

  it("uses DATABASE_URL, then ./data/forgekit.db under the working directory", async () => {
    const fromEnv = await sandbox.runRaw(["migrate"], { DATABASE_URL: "env.db" });
    expect(fromEnv.code).toBe(0);
    expect(existsSync(join(sandbox.dir, "env.db"))).toBe(true);
    const byDefault = await sandbox.runRaw(["migrate"]);
    expect(byDefault.code).toBe(0);
    expect(existsSync(join(sandbox.dir, "data", "forgekit.db"))).toBe(true);
  });

  it("takes DATABASE_URL=sqlite:./x.db as the SQLite file ./x.db, never a folder named sqlite:.", async () => {
    const run = await sandbox.runRaw(["migrate"], { DATABASE_URL: "sqlite:./scheme.db" });
    expect(run.code).toBe(0);
    expect(existsSync(join(sandbox.dir, "scheme.db"))).toBe(true);
    expect(existsSync(join(sandbox.dir, "sqlite:."))).toBe(false);
  });
});

describe("users commands", () => {
  beforeAll(async () => {
    expect((await sandbox.run("migrate")).code).toBe(0);
  });

  it("creates users and refuses duplicates and invalid input", async () => {
    const created = await sandbox.run("--json", "users", "create", "--username", "carol", "--name", "Carol", "--email", "carol@example.com", "--password", "long-enough-1");
    expect(created.code).toBe(0);
    expect(created.json()).toMatchObject({ username: "carol", name: "Carol", state: "active", admin: false });
    expect(created.stdout).not.toContain("password");

    const text = await sandbox.run("users", "create", "--username", "dave", "--name", "Dave", "--email", "dave@example.com", "--admin");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^created user \d+ @dave "Dave" \(active, admin\)\n$/);

    const duplicate = await sandbox.run("users", "create", "--username", "CAROL", "--name", "C", "--email", "c2@example.com");
    expect(duplicate).toMatchObject({ code: 1, stdout: "" });
    expect(duplicate.stderr).toBe("error: username has already been taken\n");

    const short = await sandbox.run("--json", "users", "create", "--username", "erin", "--name", "Erin", "--email", "erin@example.com", "--password", "short");
    expect(short.code).toBe(1);
    expect(JSON.parse(short.stderr)).toEqual({
      error: { code: "validation", message: "password is too short (minimum is 8 characters)", messages: { password: ["is too short (minimum is 8 characters)"] } },
    });
  });

  it("lists users with filters and checks paging options", async () => {
    const all = await sandbox.run("--json", "users", "list");
    expect(all.code).toBe(0);
    const usernames = all.json<{ username: string }[]>().map((u) => u.username);
    expect(usernames).toEqual(expect.arrayContaining(["carol", "dave"]));
    const search = await sandbox.run("--json", "users", "list", "--search", "caro");
    expect(search.json<{ username: string }[]>().map((u) => u.username)).toEqual(["carol"]);
    const page = await sandbox.run("--json", "users", "list", "--per-page", "1", "--page", "2");
    expect(page.json<unknown[]>()).toHaveLength(1);
    expect((await sandbox.run("users", "list", "--per-page", "101")).code).toBe(2);
    expect((await sandbox.run("users", "list", "--state", "sleeping")).code).toBe(2);
  });

  it("blocks, unblocks and sets admin by username or id", async () => {
    const blocked = await sandbox.run("--json", "users", "block", "carol");
    expect(blocked.code).toBe(0);
    const carol = blocked.json<{ id: number; state: string }>();
    expect(carol.state).toBe("blocked");
    const listed = await sandbox.run("--json", "users", "list", "--state", "blocked");
    expect(listed.json<{ username: string }[]>().map((u) => u.username)).toEqual(["carol"]);
    const unblocked = await sandbox.run("users", "unblock", String(carol.id));
    expect(unblocked.code).toBe(0);
    expect(unblocked.stdout).toMatch(/^unblocked user \d+ @carol "Carol" \(active\)/);
    const admin = await sandbox.run("--json", "users", "set-admin", "carol");
    expect(admin.json()).toMatchObject({ admin: true });
    const revoked = await sandbox.run("--json", "users", "set-admin", "carol", "false");
    expect(revoked.json()).toMatchObject({ admin: false });
    expect((await sandbox.run("users", "set-admin", "carol", "maybe")).code).toBe(2);
  });

  it("reports unknown users with exit code 1", async () => {
    const result = await sandbox.run("users", "block", "nobody");
    expect(result).toMatchObject({ code: 1, stderr: "error: User not found\n" });
  });
});
