/**
 * Ids beyond the 32-bit id range in the event feeds and the activity services: answered like any
 * unknown id, never a 500 (PostgreSQL refuses to compare an `integer` column with such a value).
 */
import { createTestForgekit, must, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

// Without their variables the PostgreSQL and MySQL runs are collected as skipped, so the run's summary counts them.
const databases: [string, boolean, () => Promise<TestDatabase> | TestDatabase][] = [["SQLite", true, sqliteDatabase]];
const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
databases.push(["PostgreSQL", (pgUrl ?? "") !== "", () => postgresDatabase(pgUrl ?? "")]);
databases.push(["MySQL", (myUrl ?? "") !== "", () => mysqlDatabase(myUrl ?? "")]);

const BIG = 2_147_483_648;

for (const [name, run, open] of databases) {
  describe.skipIf(!run)(`event feeds and activity services with ids beyond the id range on ${name}`, () => {
    let database: TestDatabase;
    let t: TestForgekit;
    const get = (path: string) => t.fk.handle({ method: "GET", path: `/api/v4${path}`, rawQuery: "", headers: { "private-token": t.tokens.root } });

    beforeAll(async () => {
      database = await open();
      t = await createTestForgekit({ store: await database.makeStore() });
    });
    afterAll(async () => {
      await t.store.close();
      await database.dispose();
    });

    it(`GET /projects/${BIG}/events and /users/${BIG}/events → 404`, async () => {
      expect((await get(`/projects/${BIG}/events`)).body).toBe(JSON.stringify({ message: "404 Project Not Found" }));
      expect((await get(`/users/${BIG}/events`)).body).toBe(JSON.stringify({ message: "404 User Not Found" }));
      expect((await get(`/projects/${t.projects.publicProject.id}/events`)).status).toBe(200);
    });

    it("services: unknown iids, projects and snippets → 404; event ids → validation", async () => {
      const p = t.projects.publicProject.id;
      expect((await t.fk.issues.find(p, BIG))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Issue" });
      expect((await t.fk.mergeRequests.merge(p, BIG, t.users.root.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Merge Request" });
      expect((await t.fk.milestones.close(BIG, 1, t.users.root.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
      expect((await t.fk.notes.create({ on: { type: "Snippet", id: BIG }, authorId: t.users.root.id, body: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Snippet" });
      expect((await t.fk.issues.create({ projectId: p, authorId: BIG, title: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
      expect((await t.fk.events.record({ projectId: BIG, authorId: t.users.root.id, action: "created" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { project_id: ["is invalid"] } });
      expect((await t.fk.events.ofUser(null, String(BIG)))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
      expect((await must(t.fk.events.ofProject(null, p))).items.length).toBeGreaterThan(0);
    });
  });
}
