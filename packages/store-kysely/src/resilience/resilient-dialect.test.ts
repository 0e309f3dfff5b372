/**
 * The dialect wrapper's rules, through Kysely over a scripted driver (no database): which failures
 * become storeUnavailable, which statements run again on a fresh connection, and which never do.
 */
import { isStoreUnavailable } from "@forgekit/core";
import { Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type QueryResult } from "kysely";
import { describe, expect, it } from "vitest";
import { resilientDialect, type ResilienceOptions } from "./resilient-dialect.js";

interface Db {
  t: { id: number; name: string };
}

const lost = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01", severity: "FATAL" });
const notQueryable = () => new Error("Client has encountered a connection error and is not queryable");
const lockTimeout = () => Object.assign(new Error("canceling statement due to lock timeout"), { code: "55P03", severity: "ERROR" });

/** A driver whose n-th connection fails the statements `fails[n]` picks (by SQL) with the error it returns. */
function scriptedDriver(fails: ((sql: string) => Error | undefined)[], options: { acquireDelayMs?: number; pooled?: boolean } = {}) {
  const log: string[] = [];
  const free: DatabaseConnection[] = [];
  const acquireDelayMs = options.acquireDelayMs ?? 0;
  let opened = 0;
  const driver: Driver = {
    init: () => Promise.resolve(),
    async acquireConnection() {
      const reused = options.pooled === true ? free.pop() : undefined;
      if (reused !== undefined) return reused;
      const id = opened;
      opened += 1;
      if (acquireDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, acquireDelayMs));
      log.push(`acquire ${id}`);
      const connection: DatabaseConnection & { id: number } = {
        id,
        executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
          log.push(`${id}: ${query.sql}`);
          const error = fails[id]?.(query.sql);
          return error ? Promise.reject(error) : Promise.resolve({ rows: [{ id: 1, name: "x" } as R] });
        },
        // eslint-disable-next-line require-yield -- never streamed here
        async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
          throw new Error("not used");
        },
      };
      return connection;
    },
    beginTransaction: (connection) => connection.executeQuery({ sql: "begin" } as CompiledQuery).then(() => undefined),
    commitTransaction: (connection) => connection.executeQuery({ sql: "commit" } as CompiledQuery).then(() => undefined),
    rollbackTransaction: (connection) => connection.executeQuery({ sql: "rollback" } as CompiledQuery).then(() => undefined),
    releaseConnection(connection) {
      free.push(connection);
      log.push(`release ${(connection as DatabaseConnection & { id: number }).id}`);
      return Promise.resolve();
    },
    destroy: () => Promise.resolve(),
  };
  return { driver, log };
}

function dialect(driver: Driver, options: Partial<ResilienceOptions> = {}) {
  const inner: Dialect = {
    createDriver: () => driver,
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (kysely) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return resilientDialect(inner, { label: "TestDB", retryAfterSeconds: 3, reconnectAttempts: 3, ...options });
}

function db(driver: Driver, options: Partial<ResilienceOptions> = {}): Kysely<Db> {
  return new Kysely<Db>({ dialect: dialect(driver, options) });
}

const isSelect = (sql: string) => (sql.startsWith("select") ? lost() : undefined);

describe("resilientDialect", () => {
  it("a read whose connection turns out dead runs once more on a fresh connection", async () => {
    const { driver, log } = scriptedDriver([isSelect]);
    const rows = await db(driver).selectFrom("t").selectAll().execute();
    expect(rows).toEqual([{ id: 1, name: "x" }]);
    expect(log).toEqual(["acquire 0", '0: select * from "t"', "release 0", "acquire 1", '1: select * from "t"', "release 1"]);
  });

  it("a read keeps moving while each connection it gets is dead, at most reconnectAttempts times", async () => {
    const { driver, log } = scriptedDriver([isSelect, isSelect, isSelect]);
    const rows = await db(driver).selectFrom("t").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(log.filter((line) => line.includes("select"))).toHaveLength(4);

    const always = scriptedDriver(Array.from({ length: 10 }, () => isSelect));
    const error = await db(always.driver)
      .selectFrom("t")
      .selectAll()
      .execute()
      .catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(always.log.filter((line) => line.includes("select"))).toHaveLength(4);
    expect(always.log.filter((line) => line.startsWith("release"))).toHaveLength(4);
  });

  it("a write that may have reached the server is not repeated: 503-shaped error with the driver's as cause", async () => {
    const { driver, log } = scriptedDriver([() => lost()]);
    const error = await db(driver)
      .insertInto("t")
      .values({ id: 2, name: "y" })
      .execute()
      .catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterSeconds: 3, message: "TestDB unavailable: connection terminated by the server (admin_shutdown)" });
    expect((error as Error).cause).toMatchObject({ code: "57P01" });
    expect(log.filter((line) => line.includes("insert"))).toHaveLength(1);
  });

  it("a write refused before being written (dead socket) runs on a fresh connection", async () => {
    const { driver, log } = scriptedDriver([() => notQueryable()]);
    await db(driver).insertInto("t").values({ id: 2, name: "y" }).execute();
    expect(log.filter((line) => line.includes("insert"))).toEqual(['0: insert into "t" ("id", "name") values (?, ?)', '1: insert into "t" ("id", "name") values (?, ?)']);
  });

  it("a dead connection at `begin` is replaced; inside the transaction nothing is repeated", async () => {
    const { driver, log } = scriptedDriver([(sql) => (sql === "begin" ? lost() : undefined), (sql) => (sql.startsWith("select") ? lost() : undefined)]);
    const error = await db(driver)
      .transaction()
      .execute((trx) => trx.selectFrom("t").selectAll().execute())
      .catch((e: unknown) => e);
    // begin failed on 0 and ran on 1; the select inside failed on 1 and was not retried; the rollback
    // on a lost connection is not an error, so the select's failure is the one reported.
    expect(log).toEqual(["acquire 0", "0: begin", "release 0", "acquire 1", "1: begin", '1: select * from "t"', "1: rollback", "release 1"]);
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it("a rollback failing because the connection is gone leaves the caller's error in place", async () => {
    const { driver } = scriptedDriver([(sql) => (sql === "rollback" ? lost() : undefined)]);
    const mine = new Error("the caller's own failure");
    const error = await db(driver)
      .transaction()
      .execute(() => Promise.reject(mine))
      .catch((e: unknown) => e);
    expect(error).toBe(mine);
  });

  it("a timeout is unavailable but not repeated (it would time out again)", async () => {
    const { driver, log } = scriptedDriver([() => lockTimeout()]);
    const error = await db(driver)
      .selectFrom("t")
      .selectAll()
      .execute()
      .catch((e: unknown) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect(log.filter((line) => line.includes("select"))).toHaveLength(1);
  });

  it("an ordinary statement error passes through untouched", async () => {
    const unique = Object.assign(new Error("duplicate key"), { code: "23505" });
    const { driver } = scriptedDriver([() => unique]);
    const error = await db(driver)
      .insertInto("t")
      .values({ id: 1, name: "x" })
      .execute()
      .catch((e: unknown) => e);
    expect(error).toBe(unique);
  });

  it("waiting longer than acquireTimeoutMs for a connection is a 503; the late connection goes back to the pool", async () => {
    const { driver, log } = scriptedDriver([], { acquireDelayMs: 1500 });
    const started = performance.now();
    const error = await db(driver, { acquireTimeoutMs: 50 })
      .selectFrom("t")
      .selectAll()
      .execute()
      .catch((e: unknown) => e);
    // Not the 1,500 ms the connection takes: the margin absorbs a loaded CI runner.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).message).toBe("TestDB unavailable: no connection within 50 ms");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(log).toEqual(["acquire 0", "release 0"]);
  });

  it("prepareConnection runs once per new connection, before its first statement", async () => {
    const { driver, log } = scriptedDriver([], { pooled: true });
    const prepared: number[] = [];
    const kysely = db(driver, {
      prepareConnection: async (connection) => {
        prepared.push((connection as DatabaseConnection & { id: number }).id);
        await connection.executeQuery({ sql: "set session x = 1" } as CompiledQuery);
      },
    });
    await kysely.selectFrom("t").selectAll().execute();
    await kysely.selectFrom("t").selectAll().execute();
    await Promise.all([kysely.selectFrom("t").selectAll().execute(), kysely.selectFrom("t").selectAll().execute()]);
    expect(prepared).toEqual([0, 1]);
    expect(log.slice(0, 3)).toEqual(["acquire 0", "0: set session x = 1", '0: select * from "t"']);
  });

  it("withoutLimits lifts the limits from connections checked out meanwhile and restores them on release", async () => {
    const { driver, log } = scriptedDriver([], { pooled: true });
    const limits = {
      lift: (connection: DatabaseConnection) => connection.executeQuery({ sql: "lift" } as CompiledQuery).then(() => undefined),
      restore: (connection: DatabaseConnection) => connection.executeQuery({ sql: "restore" } as CompiledQuery).then(() => undefined),
    };
    const resilient = dialect(driver, { limits });
    const kysely = new Kysely<Db>({ dialect: resilient });
    await resilient.withoutLimits(() => kysely.selectFrom("t").selectAll().execute());
    await kysely.selectFrom("t").selectAll().execute();
    expect(log).toEqual(["acquire 0", "0: lift", '0: select * from "t"', "0: restore", "release 0", '0: select * from "t"', "release 0"]);
  });
});
