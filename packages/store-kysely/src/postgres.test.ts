import { runStoreConformance } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { postgresDatabase, type TestDatabase } from "./test-databases.js";

const url = process.env.FORGEKIT_TEST_POSTGRES_URL;

if (url === undefined || url === "") {
  console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — PostgreSQL conformance skipped");
  it.skip("PostgreSQL conformance (set FORGEKIT_TEST_POSTGRES_URL to run it)", () => {});
} else {
  describe("PostgreSQL", () => {
    let database: TestDatabase;
    let started = 0;
    beforeAll(() => {
      started = performance.now();
      database = postgresDatabase(url);
    });
    afterAll(async () => {
      await database.dispose();
      console.log(`store-kysely: PostgreSQL conformance took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    });
    runStoreConformance("kyselyStore(postgres)", () => database.makeStore());
  });
}
