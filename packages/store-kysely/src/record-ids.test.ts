/**
 * Ids beyond the 32-bit id range name no record: every endpoint answers them like any unknown id
 * (404, or 400 for parameters typed as record ids), never 500 — PostgreSQL refuses to compare an
 * `integer` column with such a value, so the HTTP layer must never hand one to the store.
 */
import { createTestForgekit, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

// Without their variables the PostgreSQL and MySQL runs are collected as skipped, so the run's summary counts them.
const databases: [string, boolean, () => Promise<TestDatabase> | TestDatabase][] = [["SQLite", true, sqliteDatabase]];
const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
databases.push(["PostgreSQL", (pgUrl ?? "") !== "", () => postgresDatabase(pgUrl ?? "")]);
databases.push(["MySQL", (myUrl ?? "") !== "", () => mysqlDatabase(myUrl ?? "")]);

const BIG = "2147483648";
const HUGE = "9007199254740993";

for (const [name, run, open] of databases) {
  describe.skipIf(!run)(`record ids beyond the id range on ${name}`, () => {
    let database: TestDatabase;
    let t: TestForgekit;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const [p, q = ""] = path.split("?");
      return t.fk.handle({ method: "GET", path: `/api/v4${p ?? ""}`, rawQuery: q, headers: { "private-token": t.tokens.root, ...headers } });
    };
    beforeAll(async () => {
      database = await open();
      t = await createTestForgekit({ store: await database.makeStore() });
    });
    afterAll(async () => {
      await t.store.close();
      await database.dispose();
    });

    for (const id of [BIG, HUGE]) {
      it(`GET /projects/${id}, /groups/${id}, /users/${id} → 404`, async () => {
        expect((await get(`/projects/${id}`)).status).toBe(404);
        expect((await get(`/groups/${id}`)).status).toBe(404);
        expect((await get(`/users/${id}`)).status).toBe(404);
      });
      it(`sudo ${id} → 404 User with ID or username Not Found`, async () => {
        const r = await get("/user", { sudo: id });
        expect(r.status).toBe(404);
        expect(String(r.body)).toBe(JSON.stringify({ message: `404 User with ID or username '${id}' Not Found` }));
      });
      it(`an id-typed parameter (${id}) → 400 is invalid`, async () => {
        const r = await get(`/users/${id}/impersonation_tokens`);
        expect(r.status).toBe(400);
        expect(String(r.body)).toBe(JSON.stringify({ error: "id is invalid" }));
      });
    }
  });
}
