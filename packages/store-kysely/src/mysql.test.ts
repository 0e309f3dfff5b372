import { runStoreConformance } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { mysqlDatabase, type TestDatabase } from "./test-databases.js";

const url = process.env.FORGEKIT_TEST_MYSQL_URL;

if (url === undefined || url === "") {
  console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — MySQL / MariaDB conformance skipped");
  it.skip("MySQL / MariaDB conformance (set FORGEKIT_TEST_MYSQL_URL to run it)", () => {});
} else {
  describe("MySQL / MariaDB", () => {
    let database: TestDatabase;
    let started = 0;
    beforeAll(async () => {
      started = performance.now();
      database = await mysqlDatabase(url);
    });
    afterAll(async () => {
      await database.dispose();
      console.log(`store-kysely: MySQL / MariaDB conformance took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    runStoreConformance("kyselyStore(mysql)", () => database.makeStore());
  });
}
