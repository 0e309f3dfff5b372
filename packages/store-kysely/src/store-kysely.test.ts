import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { FORGEKIT_TABLES, MIGRATION_NAMES, fromUrl, kyselyStore, sqlite } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-store-kysely-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = new Date("2026-03-01T00:00:00.000Z");

describe("fromUrl", () => {
  it("fromUrl - picks the dialect from the scheme", async () => {
    const configs = [
      fromUrl("postgres://u@127.0.0.1:1/db"),
      fromUrl("postgresql://u@127.0.0.1:1/db"),
      fromUrl("mysql://u@127.0.0.1:1/db"),
      fromUrl("mariadb://u@127.0.0.1:1/db"),
      fromUrl(join(dir, "from-url.db")),
      fromUrl(`file:${join(dir, "from-file-url.db")}`),
    ];
    expect(configs.map((config) => config.traits.name)).toEqual(["postgres", "postgres", "mysql", "mysql", "sqlite", "sqlite"]);
    // Pools connect lazily; destroying the stores closes them without a connection ever being made.
    for (const config of configs) await kyselyStore(config).close();
  });

  it("fromUrl - rejects other schemes", () => {
    expect(() => fromUrl("redis://localhost/0")).toThrow(/unsupported/);
  });

  it("fromUrl - :memory: is a working SQLite store", async () => {
    const store = kyselyStore(fromUrl(":memory:"));
    await store.migrate();
    const user = await store.users.create({ username: "mem", name: "Mem" }, now);
    expect(await store.users.findByUsername("MEM")).toEqual(user);
    await store.close();
  });
});

describe("sqlite", () => {
  it("sqlite(path) - turns on WAL and foreign keys; SQLite's blocking busy handler is off (the driver waits on timers)", async () => {
    const file = join(dir, "pragmas.db");
    const store = kyselyStore(sqlite(file, { busyTimeoutMs: 1234 }));
    await store.migrate();
    await store.close();
    const check = new BetterSqlite3(file);
    expect(check.pragma("journal_mode", { simple: true })).toBe("wal");
    check.close();
    const database = new BetterSqlite3(join(dir, "owned.db"));
    database.pragma("foreign_keys = OFF");
    const owned = kyselyStore(sqlite(database, { busyTimeoutMs: 1234 }));
    await owned.migrate();
    expect(database.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(database.pragma("busy_timeout", { simple: true })).toBe(0);
    expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
    // NORMAL, also in the session that switched the file to WAL (SQLite keeps FULL there otherwise).
    expect(database.pragma("synchronous", { simple: true })).toBe(1);
    await owned.close();
    database.close();
  });

  it("sqlite(path, { synchronous: 'full' }) - every commit waits for fsync", async () => {
    const database = new BetterSqlite3(join(dir, "full.db"));
    const store = kyselyStore(sqlite(database, { synchronous: "full" }));
    await store.migrate();
    expect(database.pragma("synchronous", { simple: true })).toBe(2);
    await store.close();
    database.close();
  });

  it("sqlite(database) - close() leaves a caller's database open", async () => {
    const database = new BetterSqlite3(join(dir, "caller.db"));
    const store = kyselyStore(sqlite(database));
    await store.migrate();
    await store.close();
    expect(database.open).toBe(true);
    expect(database.prepare("select count(*) as n from forgekit_users").get()).toEqual({ n: 0 });
    database.close();
  });

  it("sqlite - foreign keys are enforced (an e-mail for an unknown user is rejected)", async () => {
    const store = kyselyStore(sqlite(":memory:"));
    await store.migrate();
    await expect(store.emails.add({ userId: 999, email: "x@example.com", primary: true, confirmedAt: null }, now)).rejects.toThrow(/FOREIGN KEY/i);
    await store.close();
  });
});

describe("migrations", () => {
  it("migrations - names are ordered and start at 0001_accounts", () => {
    expect(MIGRATION_NAMES[0]).toBe("0001_accounts");
    expect([...MIGRATION_NAMES].sort()).toEqual(MIGRATION_NAMES);
  });

  it("migrate - creates every forgekit table and records the migration", async () => {
    const file = join(dir, "tables.db");
    const store = kyselyStore(sqlite(file));
    await store.migrate();
    await store.close();
    const check = new BetterSqlite3(file);
    const tables = check.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[];
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining([...FORGEKIT_TABLES, "forgekit_migrations", "forgekit_migrations_lock"]));
    expect(check.prepare("select name from forgekit_migrations").all()).toEqual(MIGRATION_NAMES.map((name) => ({ name })));
    check.close();
  });

  it("migrate - two stores migrating one new SQLite file at once both succeed", async () => {
    const file = join(dir, "racing.db");
    const a = kyselyStore(sqlite(file));
    const b = kyselyStore(sqlite(file));
    await Promise.all([a.migrate(), b.migrate()]);
    expect(await a.users.create({ username: "race", name: "R" }, now)).not.toBeNull();
    expect(await b.users.findByUsername("race")).not.toBeNull();
    await a.close();
    await b.close();
  });
});
