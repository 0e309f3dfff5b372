/**
 * The OAuth store conformance suite (core testing/oauth-store-conformance) on every database of the
 * matrix, with 50 racing callers: SQLite always, PostgreSQL and MySQL / MariaDB when their URLs are set.
 */
import type { Store } from "@forgekit/core";
import { oauthStoreFrom } from "@forgekit/core";
import { runOAuthStoreConformance } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe } from "vitest";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

/** The suite on one database, under `title`; collected as skipped (so counted) when `run` is false. */
function matrixEntry(name: string, title: string, run: boolean, open: () => TestDatabase | Promise<TestDatabase>): void {
  describe.skipIf(!run)(title, () => {
    let database: TestDatabase;
    const stores: Store[] = [];
    beforeAll(async () => {
      database = await open();
    });
    afterAll(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await database.dispose();
    });
    runOAuthStoreConformance(
      `kyselyStore(${name}).oauth`,
      async () => {
        const store = await database.makeStore();
        stores.push(store);
        return oauthStoreFrom(store);
      },
      { races: 50 },
    );
  });
}

const configured = (variable: string, what: string): boolean => {
  const set = (process.env[variable] ?? "") !== "";
  if (!set) console.log(`store-kysely: ${variable} is not set — ${what} OAuth conformance skipped`);
  return set;
};

matrixEntry("sqlite", "SQLite", true, () => sqliteDatabase());
const postgresUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
matrixEntry("postgres", "PostgreSQL", configured("FORGEKIT_TEST_POSTGRES_URL", "PostgreSQL"), () => postgresDatabase(postgresUrl));
const mysqlUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
matrixEntry("mysql", "MySQL / MariaDB", configured("FORGEKIT_TEST_MYSQL_URL", "MySQL / MariaDB"), () => mysqlDatabase(mysqlUrl));
