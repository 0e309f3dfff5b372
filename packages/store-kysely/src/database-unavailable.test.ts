/**
 * An unavailable database answers 503 `{"message":"503 Service Unavailable"}` + `Retry-After`, fast,
 * instead of hanging or a 500: over HTTP, through createForgekit and the node handler. Unreachable
 * and hanging servers need no database (always run); lock and statement timeouts run on PostgreSQL
 * and MySQL when FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL are set.
 */
import { createServer } from "node:http";
import { createForgekit, isStoreUnavailable, type Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { listenOn } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromUrl, kyselyStore, mysql, postgres } from "./index.js";
import { capturingLogger, closedPort, mysqlFaultDatabase, postgresFaultDatabase, servedInstance, silentServer, type FaultDatabase } from "./test-faults.js";

/** GET `path` with a token (authenticating reads the store) on an instance whose database is not there. */
async function getOn(store: Store, path: string): Promise<{ status: number; retryAfter: string | null; body: unknown; ms: number }> {
  const fk = createForgekit({ baseUrl: "https://forge.example.com", store, logger: { log: () => undefined } });
  const served = await listenOn(createServer(createNodeHandler(fk)));
  try {
    const started = performance.now();
    const response = await fetch(`${served.url}${path}`, { headers: { "private-token": "glpat-0123456789abcdefghij" } });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json(), ms: performance.now() - started };
  } finally {
    await served.close();
    await store.close();
  }
}

const UNAVAILABLE = { message: "503 Service Unavailable" };

describe("database unreachable - 503 + Retry-After, not a hang or a 500", () => {
  let refused = 0;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    refused = await closedPort();
    silent = await silentServer();
  });
  afterAll(() => silent.close());

  it("PostgreSQL on a closed port: 503 at once", async () => {
    const result = await getOn(kyselyStore(postgres(`postgres://u@127.0.0.1:${refused}/x`, { retryAfterSeconds: 7 })), "/api/v4/users/1");
    expect(result).toMatchObject({ status: 503, retryAfter: "7", body: UNAVAILABLE });
    expect(result.ms).toBeLessThan(1000);
  });

  it("MySQL on a closed port: 503 at once", async () => {
    const result = await getOn(kyselyStore(mysql(`mysql://u@127.0.0.1:${refused}/x`)), "/api/v4/users/1");
    expect(result).toMatchObject({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(result.ms).toBeLessThan(1000);
  });

  it("PostgreSQL that accepts but never answers: 503 after connectTimeoutMs", async () => {
    const result = await getOn(kyselyStore(postgres(`postgres://u@127.0.0.1:${silent.port}/x`, { connectTimeoutMs: 300 })), "/api/v4/users/1");
    expect(result).toMatchObject({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(result.ms).toBeGreaterThanOrEqual(250);
    expect(result.ms).toBeLessThan(1500);
  });

  it("MySQL that accepts but never answers: 503 after connectTimeoutMs", async () => {
    const result = await getOn(kyselyStore(mysql(`mysql://u@127.0.0.1:${silent.port}/x`, { connectTimeoutMs: 300 })), "/api/v4/users/1");
    expect(result).toMatchObject({ status: 503, retryAfter: "1", body: UNAVAILABLE });
    expect(result.ms).toBeGreaterThanOrEqual(250);
    expect(result.ms).toBeLessThan(1500);
  });

  it("fromUrl passes the limits on (a DATABASE_URL host sets them too)", async () => {
    for (const store of [
      kyselyStore(fromUrl(`postgresql://u@127.0.0.1:${silent.port}/x`, { postgres: { connectTimeoutMs: 300 } })),
      kyselyStore(fromUrl(`mariadb://u@127.0.0.1:${silent.port}/x`, { mysql: { connectTimeoutMs: 300 } })),
    ]) {
      const result = await getOn(store, "/api/v4/users/1");
      expect(result).toMatchObject({ status: 503, body: UNAVAILABLE });
      expect(result.ms).toBeLessThan(1500);
    }
  });

  it("limits are refused for a caller's pool (they would silently do nothing) and must be sane numbers", () => {
    const pool = { connect: () => Promise.reject(new Error("unused")), end: () => Promise.resolve() };
    expect(() => postgres(pool, { statementTimeoutMs: 100 })).toThrow(/statementTimeoutMs apply to pools forgekit creates/);
    expect(() => postgres("postgres://u@127.0.0.1/x", { lockTimeoutMs: -1 })).toThrow(/lockTimeoutMs must be a non-negative number/);
    expect(() => mysql("mysql://u@127.0.0.1/x", { retryAfterSeconds: 0 })).toThrow(/retryAfterSeconds must be at least 1/);
  });
});

/**
 * A request blocked by a lock another session holds for 3 s: with a short lock (or statement)
 * timeout it is a 503 well before the lock goes away.
 */
function lockedTableSuite(name: string, setup: {
  database: (url: string) => Promise<FaultDatabase>;
  store: (url: string, limits: { lockTimeoutMs?: number; statementTimeoutMs?: number }) => Store;
  /** Statements that take and hold a lock on `table`, and the one releasing it. */
  lock: (table: string) => string[];
  unlock: string;
  url: string;
}) {
  describe(`${name} - a statement blocked by a lock held longer than the configured timeout`, () => {
    let database: FaultDatabase;
    let seeded: Awaited<ReturnType<typeof servedInstance>>;
    beforeAll(async () => {
      database = await setup.database(setup.url);
      // Migrated and seeded once; each case serves it through a store with its own limits.
      seeded = await servedInstance(setup.store(database.url, {}), capturingLogger());
    });
    afterAll(async () => {
      await seeded.close();
      await database.drop();
    });

    it.each([
      ["lock timeout", { lockTimeoutMs: 400, statementTimeoutMs: 10_000 }],
      ["statement timeout", { lockTimeoutMs: 0, statementTimeoutMs: 600 }],
    ])("%s: 503 + Retry-After, not a wait for the lock", async (_what, limits) => {
      const { t } = seeded;
      const fk = createForgekit({ baseUrl: t.baseUrl, store: setup.store(database.url, limits), logger: { log: () => undefined } });
      const served = await listenOn(createServer(createNodeHandler(fk)));
      const get = () => fetch(`${served.url}/api/v4/users/${t.users.alice.id}`, { headers: { "private-token": t.tokens.alice } });
      const locker = await database.admin();
      try {
        expect((await get()).status).toBe(200);
        for (const statement of setup.lock("forgekit_users")) await locker.query(statement);
        const started = performance.now();
        const response = await get();
        const ms = performance.now() - started;
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(await response.json()).toEqual(UNAVAILABLE);
        expect(ms).toBeLessThan(2500);
        await locker.query(setup.unlock);
        expect((await get()).status).toBe(200);
      } finally {
        await locker.close();
        await served.close();
        await fk.store.close();
      }
    });

    it("migrate is not bound by the limits: it waits for a lock held longer than lockTimeoutMs", async () => {
      const store = setup.store(database.url, { lockTimeoutMs: 200, statementTimeoutMs: 300 });
      const locker = await database.admin();
      try {
        for (const statement of setup.lock("forgekit_migrations")) await locker.query(statement);
        const started = performance.now();
        const migrating = store.migrate();
        setTimeout(() => void locker.query(setup.unlock), 1_200);
        await migrating;
        expect(performance.now() - started).toBeGreaterThan(1_000);
        // The lifted limits went back on: an ordinary statement is bound again.
        for (const statement of setup.lock("forgekit_users")) await locker.query(statement);
        const error = await store.users.findById(1).catch((e: unknown) => e);
        expect(isStoreUnavailable(error)).toBe(true);
        await locker.query(setup.unlock);
      } finally {
        await locker.close();
        await store.close();
      }
    });
  });
}

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
// Without FORGEKIT_TEST_POSTGRES_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(pgUrl === "")("PostgreSQL", () => {
  lockedTableSuite("PostgreSQL", {
    url: pgUrl,
    database: postgresFaultDatabase,
    store: (url, limits) => kyselyStore(postgres(url, limits)),
    lock: (table) => ["begin", `lock table ${table} in access exclusive mode`],
    unlock: "rollback",
  });
});

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
// Without FORGEKIT_TEST_MYSQL_URL the tests are collected as skipped, so the run's summary counts them.
describe.skipIf(myUrl === "")("MySQL", () => {
  lockedTableSuite("MySQL", {
    url: myUrl,
    database: mysqlFaultDatabase,
    store: (url, limits) => kyselyStore(mysql(url, limits)),
    lock: (table) => [`lock tables ${table} write`],
    unlock: "unlock tables",
  });
});
