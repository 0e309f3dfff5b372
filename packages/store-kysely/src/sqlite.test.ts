import { runStoreConformance } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe } from "vitest";
import { sqliteDatabase, type TestDatabase } from "./test-databases.js";

describe("SQLite", () => {
  let database: TestDatabase;
  let started = 0;
  beforeAll(() => {
    started = performance.now();
    database = sqliteDatabase();
  });
  afterAll(async () => {
    await database.dispose();
    console.log(`store-kysely: SQLite conformance took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  runStoreConformance("kyselyStore(sqlite)", () => database.makeStore());
});
