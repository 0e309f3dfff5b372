/**
 * Every HTTP suite of core (conventions, accounts, OAuth, events, notification settings,
 * iterations, error tracking) on instances backed by this store, through the node handler: SQLite
 * always (an in-memory database per instance), PostgreSQL (a fresh schema per instance) and MySQL
 * (a fresh database per instance) when FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL are set. The adapters run the same suites on the in-memory reference
 * store; this run catches what only SQL does.
 */
import { createServer } from "node:http";
import type { Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { allHttpSuites, describeHttpSuite, listenOn, useTestStore } from "@forgekit/core/testing";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { kyselyStore, mysql, postgres, sqlite } from "./index.js";
import { freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

const serve = (instance: Parameters<typeof createNodeHandler>[0]) => listenOn(createServer(createNodeHandler(instance)));

/** Runs every suite with `createTestForgekit()` building its instances on `factory`'s stores. */
function describeOn(name: string, factory: () => Store | Promise<Store>, cleanup: () => Promise<void> = async () => {}) {
  describe(`HTTP suites on ${name}`, () => {
    let previous: ReturnType<typeof useTestStore> | undefined;
    beforeAll(() => {
      previous = useTestStore(factory);
    });
    afterAll(async () => {
      if (previous) useTestStore(previous);
      await cleanup();
    });
    describeHttpSuite(`node:http + ${name}`, serve, allHttpSuites);
  });
}

describeOn("SQLite", () => kyselyStore(sqlite(":memory:")));

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
if (pgUrl !== undefined && pgUrl !== "") {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 8 });
  const schemas: string[] = [];
  describeOn(
    "PostgreSQL",
    () => {
      const schema = uniqueSchemaName();
      schemas.push(schema);
      return kyselyStore(postgres(pool, { schema }));
    },
    async () => {
      for (const schema of schemas) await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    },
  );
} else {
  console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP suites on PostgreSQL are skipped");
}

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
if (myUrl !== undefined && myUrl !== "") {
  const databases: { drop: () => Promise<void>; store: Store }[] = [];
  describeOn(
    "MySQL",
    async () => {
      const fresh = await freshMysqlDatabase(myUrl);
      const store = kyselyStore(mysql(fresh.url));
      databases.push({ drop: fresh.drop, store });
      return store;
    },
    async () => {
      for (const { store, drop } of databases) {
        await store.close();
        await drop();
      }
    },
  );
} else {
  console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — the HTTP suites on MySQL are skipped");
}
