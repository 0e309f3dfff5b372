/**
 * The SQLite driver's lock handling within one process: two connections on one file stand in for
 * two processes (SQLite locks per connection). The cross-process tests are in
 * test/sqlite-writers.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isStoreUnavailable } from "@forgekit/core";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { kyselyStore } from "../store.js";
import { sqlite } from "./sqlite.js";
import { isSqliteLockError, retryWhileLocked } from "./sqlite-lock-wait.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-sqlite-driver-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const now = new Date("2026-03-01T00:00:00.000Z");

/** A second connection on `file` holding the write lock until the returned function is called. */
function holdWriteLock(file: string): () => void {
  const other = new BetterSqlite3(file);
  other.exec("begin immediate");
  return () => {
    other.exec("commit");
    other.close();
  };
}

const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });

describe("retryWhileLocked", () => {
  it("isSqliteLockError - knows SQLite's busy and locked codes, extended ones included", () => {
    expect(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED", "SQLITE_LOCKED_SHAREDCACHE"].map((code) => isSqliteLockError({ code }))).toEqual([true, true, true, true]);
    expect(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_BUSYX", undefined].map((code) => isSqliteLockError({ code }))).toEqual([false, false, false]);
    expect(isSqliteLockError(null)).toBe(false);
  });

  it("retryWhileLocked - retries a lock error until the attempt succeeds", async () => {
    let calls = 0;
    const value = await retryWhileLocked(() => {
      calls += 1;
      if (calls < 4) throw busy();
      return "done";
    }, 1000);
    expect([value, calls]).toEqual(["done", 4]);
  });

  it("retryWhileLocked - any other error passes through at once", async () => {
    let calls = 0;
    const failure = new Error("no such table");
    await expect(
      retryWhileLocked(() => {
        calls += 1;
        throw failure;
      }, 1000),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it("retryWhileLocked - past the budget the lock error becomes storeUnavailable (cause kept)", async () => {
    const started = performance.now();
    const error: unknown = await retryWhileLocked(() => {
      throw busy();
    }, 60).catch((e: unknown) => e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ code: "SQLITE_BUSY" });
    expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBe(1);
  });
});

describe("sqlite driver", () => {
  it("sqlite - a write waits for another connection's lock on timers and lands once it is free", async () => {
    const file = join(dir, "wait.db");
    const store = kyselyStore(sqlite(file));
    await store.migrate();
    const release = holdWriteLock(file);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    const plain = store.users.create({ username: "plain", name: "P" }, now);
    const inTransaction = store.transaction(async (tx) => ((await tx.users.findByUsername("tx")) === null ? tx.users.create({ username: "tx", name: "T" }, now) : null));
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    const [a, b] = await Promise.all([plain, inTransaction]);
    clearInterval(timer);
    // The event loop ran while both writes waited (a blocking busy handler would allow no tick).
    expect(ticks).toBeGreaterThan(10);
    expect([a?.username, b?.username]).toEqual(["plain", "tx"]);
    await store.close();
  });

  it("sqlite - while writes wait for another connection's lock, reads of the same store go ahead", async () => {
    const file = join(dir, "reads-go-ahead.db");
    const store = kyselyStore(sqlite(file));
    await store.migrate();
    await store.users.create({ username: "reader", name: "R" }, now);
    const release = holdWriteLock(file);
    const writes = ["w1", "w2", "w3"].map((username) => store.users.create({ username, name: username }, now));
    const started = performance.now();
    const read = await store.users.findByUsername("reader");
    const readMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stillWaiting = await Promise.race([Promise.all(writes).then(() => false), Promise.resolve(true)]);
    release();
    expect((await Promise.all(writes)).map((user) => user?.username)).toEqual(["w1", "w2", "w3"]);
    expect(read?.username).toBe("reader");
    // A read queued behind the waiting writes would wait out their busy timeout (seconds); a
    // loaded two-core CI runner can delay a free read by tens of ms, so the bound is generous.
    expect(readMs).toBeLessThan(1000);
    expect(stillWaiting).toBe(true);
    await store.close();
  });

  it("sqlite - a long queue of database calls gives the event loop a turn now and then", async () => {
    const store = kyselyStore(sqlite(join(dir, "turns.db")));
    await store.migrate();
    // better-sqlite3 is synchronous and Kysely hands the connection on with a promise: without a
    // break, the whole queue would run before any timer.
    let done = 0;
    const writes = Array.from({ length: 600 }, (_, i) => store.users.create({ username: `q${i}`, name: "Q" }, now).then(() => (done += 1)));
    const doneWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await Promise.all(writes);
    expect(doneWhenTimerRan).toBeLessThan(600);
    await store.close();
  });

  it("sqlite - a lock conflict inside a transaction is not retried: storeUnavailable at once, nothing written", async () => {
    const file = join(dir, "in-transaction.db");
    const setup = new BetterSqlite3(file);
    setup.exec("create table t (x integer)");
    setup.close();
    const db = new Kysely<{ t: { x: number } }>({ dialect: sqlite(file, { busyTimeoutMs: 5000 }).dialect });
    let release: (() => void) | undefined;
    const started = performance.now();
    // A read-only transaction begins deferred (no write lock); its write meets the other writer.
    const error: unknown = await db
      .transaction()
      .setAccessMode("read only")
      .execute(async (trx) => {
        await trx.selectFrom("t").selectAll().execute();
        release = holdWriteLock(file);
        await trx.insertInto("t").values({ x: 1 }).execute();
      })
      .catch((e: unknown) => e);
    release?.();
    expect(isStoreUnavailable(error)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows).toEqual([{ n: 0 }]);
    await db.destroy();
  });

  it("sqlite - write transactions begin IMMEDIATE: one that only reads still keeps other writers out until it ends", async () => {
    const file = join(dir, "immediate.db");
    const store = kyselyStore(sqlite(file));
    await store.migrate();
    const other = new BetterSqlite3(file, { timeout: 0 });
    let otherError: unknown;
    await store.transaction(async (tx) => {
      await tx.users.findByUsername("nobody");
      try {
        other.exec("begin immediate");
      } catch (error) {
        otherError = error;
      }
    });
    expect(otherError).toMatchObject({ code: "SQLITE_BUSY" });
    other.exec("begin immediate");
    other.exec("commit");
    other.close();
    await store.close();
  });

  it("migrations - a migration that fails half-way leaves nothing behind (the batch is one transaction)", async () => {
    const file = join(dir, "half-migrated.db");
    const db = new Kysely<unknown>({ dialect: sqlite(file).dialect });
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: () =>
          Promise.resolve({
            "0001_first": { up: (trx: Kysely<unknown>) => trx.schema.createTable("first").addColumn("id", "integer").execute() },
            "0002_broken": {
              async up(trx: Kysely<unknown>) {
                await trx.schema.createTable("second").addColumn("id", "integer").execute();
                throw new Error("broken migration");
              },
            },
          }),
      },
    });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeInstanceOf(Error);
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name in ('first', 'second')`.execute(db);
    expect(tables.rows).toEqual([]);
    await db.destroy();
  });

  it("sqlite - a failed statement inside a transaction rolls back cleanly and the connection stays usable", async () => {
    const store = kyselyStore(sqlite(":memory:"));
    await store.migrate();
    await expect(
      store.transaction(async (tx) => {
        await tx.users.create({ username: "kept-out", name: "K" }, now);
        await tx.emails.add({ userId: 999, email: "x@example.com", primary: true, confirmedAt: null }, now);
      }),
    ).rejects.toThrow(/FOREIGN KEY/i);
    expect(await store.users.findByUsername("kept-out")).toBeNull();
    expect(await store.users.create({ username: "after", name: "A" }, now)).not.toBeNull();
    await store.close();
  });
});
