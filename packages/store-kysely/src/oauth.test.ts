/**
 * The OAuth store conformance suite (core testing/oauth-store-conformance) on every database of the
 * matrix, with 50 racing callers: SQLite always, PostgreSQL and MySQL / MariaDB when their URLs are set.
 */
import type { Store } from "@forgekit/core";
import { oauthStoreFrom } from "@forgekit/core";
import { runOAuthStoreConformance } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

function matrixEntry(name: string, open: () => TestDatabase | Promise<TestDatabase>): void {
  describe(name, () => {
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

const skip = (variable: string, what: string) => {
  console.log(`store-kysely: ${variable} is not set — ${what} OAuth conformance skipped`);
  it.skip(`${what} OAuth conformance (set ${variable} to run it)`, () => {});
};

matrixEntry("sqlite", () => sqliteDatabase());
const postgresUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
if (postgresUrl === undefined || postgresUrl === "") skip("FORGEKIT_TEST_POSTGRES_URL", "PostgreSQL");
else matrixEntry("postgres", () => postgresDatabase(postgresUrl));
const mysqlUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
if (mysqlUrl === undefined || mysqlUrl === "") skip("FORGEKIT_TEST_MYSQL_URL", "MySQL / MariaDB");
else matrixEntry("mysql", () => mysqlDatabase(mysqlUrl));
