/**
 * Losing database connections (restart, failover, `pg_terminate_backend`, `KILL`): the process keeps
 * running, the loss is logged once through the host's logger, the pool replaces the connections and
 * the next request succeeds. Each case runs in a database the test creates (and drops), and ends
 * only that database's connections. PostgreSQL with FORGEKIT_TEST_POSTGRES_URL, MySQL / MariaDB with
 * FORGEKIT_TEST_MYSQL_URL.
 */
import { isStoreUnavailable, type Store } from "@forgekit/core";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestForgekit } from "@forgekit/core/testing";
import { kyselyStore, mysql, postgres } from "./index.js";
import { capturingLogger, mysqlFaultDatabase, postgresFaultDatabase, servedInstance, serveOn, type FaultDatabase } from "./test-faults.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects exceptions nobody handled (an 'error' event without listener), without changing what happens to them. */
function watchUncaught(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const record = (error: unknown) => seen.push(error);
  process.on("uncaughtExceptionMonitor", record);
  return { seen, stop: () => process.off("uncaughtExceptionMonitor", record) };
}

function connectionLossSuite(name: string, url: string, setup: { database: (url: string) => Promise<FaultDatabase>; store: (url: string) => Store }) {
  describe(`${name} - connections ended by the server`, () => {
    let database: FaultDatabase;
    let world: Pick<TestForgekit, "users" | "tokens">;
    let uncaught: ReturnType<typeof watchUncaught>;
    beforeAll(async () => {
      // Migrated and seeded once; each case runs a new store (its own pool) on it.
      database = await setup.database(url);
      const seeded = await servedInstance(setup.store(database.url), capturingLogger());
      world = { users: seeded.t.users, tokens: seeded.t.tokens };
      await seeded.close();
    });
    afterAll(() => database.drop());
    beforeEach(() => {
      uncaught = watchUncaught();
    });
    afterEach(() => uncaught.stop());

    it("idle pooled connections: the process keeps running, one log line, the next request is 200", async () => {
      const logger = capturingLogger();
      const { url: api, close } = await serveOn(setup.store(database.url), logger);
      try {
        const get = () => fetch(`${api}/users/${world.users.alice.id}`, { headers: { "private-token": world.tokens.alice } });
        // Several requests at once, so the pool holds several idle connections.
        expect((await Promise.all(Array.from({ length: 6 }, get))).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(await database.killConnections()).toBeGreaterThan(1);
        await sleep(300);
        expect((await get()).status).toBe(200);
        const lost = logger.lines.filter((line) => line.event === "store.connection_lost");
        expect(lost).toHaveLength(1);
        expect(lost[0]).toMatchObject({ level: "warn", fields: { dialect: name === "PostgreSQL" ? "postgres" : "mysql" } });
        expect(uncaught.seen).toEqual([]);
      } finally {
        await close();
      }
    });

    it("a read handed a connection the server has just ended runs again on a fresh one", async () => {
      const store = setup.store(database.url);
      try {
        await Promise.all([store.users.findById(world.users.alice.id), store.users.findById(world.users.bob.id)]);
        // Blocks this process while the server ends the connections: the pool has not noticed yet
        // and hands the dead connection to the next statement.
        database.killConnectionsBlocking();
        expect(await store.users.findById(world.users.alice.id)).toMatchObject({ username: "alice" });
        expect(uncaught.seen).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it("a transaction whose connection is ended mid-way fails as unavailable (503), and the store recovers", async () => {
      const store = setup.store(database.url);
      try {
        const running = store.transaction(async (tx) => {
          await tx.users.findById(world.users.alice.id);
          await sleep(500);
          return tx.users.findById(world.users.bob.id);
        });
        const outcome = running.then(
          () => "committed",
          (error: unknown) => error,
        );
        await sleep(150);
        await database.killConnections();
        const error = await outcome;
        expect(isStoreUnavailable(error)).toBe(true);
        expect(await store.users.findById(world.users.bob.id)).toMatchObject({ username: "bob" });
        expect(uncaught.seen).toEqual([]);
      } finally {
        await store.close();
      }
    });
  });
}

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
// Without FORGEKIT_TEST_POSTGRES_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(pgUrl === "")("PostgreSQL", () => {
  connectionLossSuite("PostgreSQL", pgUrl, { database: postgresFaultDatabase, store: (url) => kyselyStore(postgres(url)) });

  describe("PostgreSQL - a caller's pool", () => {
    let database: FaultDatabase;
    beforeAll(async () => {
      database = await postgresFaultDatabase(pgUrl);
    });
    afterAll(() => database.drop());

    it("without an 'error' listener gets forgekit's, so dropped idle clients do not exit the process", async () => {
      const pool = new pg.Pool({ connectionString: database.url, max: 3 });
      const uncaught = watchUncaught();
      try {
        const store = kyselyStore(postgres(pool));
        await store.migrate();
        await Promise.all([store.users.findById(1), store.users.findById(2), store.users.findById(3)]);
        expect(pool.listenerCount("error")).toBe(1);
        await database.killConnections();
        await sleep(300);
        expect(await store.users.findById(1)).toBeNull();
        expect(uncaught.seen).toEqual([]);
      } finally {
        uncaught.stop();
        await pool.end();
      }
    });

    it("with its owner's 'error' listener is left alone", async () => {
      const pool = new pg.Pool({ connectionString: database.url, max: 3 });
      const heard: Error[] = [];
      pool.on("error", (error) => heard.push(error));
      try {
        const store = kyselyStore(postgres(pool));
        kyselyStore(postgres(pool));
        await store.migrate();
        await Promise.all([store.users.findById(1), store.users.findById(2)]);
        expect(pool.listenerCount("error")).toBe(1);
        await database.killConnections();
        await sleep(300);
        expect(heard.length).toBeGreaterThan(0);
        expect(await store.users.findById(1)).toBeNull();
      } finally {
        await pool.end();
      }
    });
  });
});

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
// Without FORGEKIT_TEST_MYSQL_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(myUrl === "")("MySQL", () => {
  connectionLossSuite("MySQL", myUrl, { database: mysqlFaultDatabase, store: (url) => kyselyStore(mysql(url)) });
});
