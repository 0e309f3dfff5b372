/**
 * A reference that can name nothing — an id beyond the id columns, text with a NUL byte (PostgreSQL
 * refuses it even in a comparison) — given to a service of the programmatic API ("id or full
 * path", "id or username") is answered `not_found`, like any unknown record, on every store: the
 * services read it through ids.ts `recordRef` and never hand it to the store.
 */
import type { ForgekitError } from "@forgekit/core";
import { createTestForgekit, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

// Without their variables the PostgreSQL and MySQL runs are collected as skipped, so the run's summary counts them.
const databases: [string, boolean, () => Promise<TestDatabase> | TestDatabase][] = [["SQLite", true, sqliteDatabase]];
const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
databases.push(["PostgreSQL", (pgUrl ?? "") !== "", () => postgresDatabase(pgUrl ?? "")]);
databases.push(["MySQL", (myUrl ?? "") !== "", () => mysqlDatabase(myUrl ?? "")]);

const NOTHING = ["4294967296", 2 ** 31, "grp/\u0000", "\u0000"] as const;

/** For `result.match(found, code)`: a service's answer as `"ok"` or its error code. */
const found = (): string => "ok";
const code = (error: ForgekitError): string => error.code;

for (const [name, run, open] of databases) {
  describe.skipIf(!run)(`service references that name nothing on ${name}`, () => {
    let database: TestDatabase;
    let t: TestForgekit;
    beforeAll(async () => {
      database = await open();
      t = await createTestForgekit({ store: await database.makeStore(), tier: "ultimate" });
    });
    afterAll(async () => {
      await database.dispose();
    });

    for (const ref of NOTHING) {
      it(`${JSON.stringify(ref)} → not_found from iterations, notification settings and recipients, events`, async () => {
        const { alice } = t.users;
        expect(await t.fk.iterations.groupsFor(ref).match(found, code)).toBe("not_found");
        expect(await t.fk.notificationSettings.get(alice, { type: "group", id: ref }).match(found, code)).toBe("not_found");
        expect(await t.fk.notificationSettings.get(alice, { type: "project", id: ref }).match(found, code)).toBe("not_found");
        expect(await t.fk.notificationRecipients({ project: ref, event: "new_issue" }).match(found, code)).toBe("not_found");
        expect(await t.fk.events.ofUser(alice, ref).match(found, code)).toBe("not_found");
        expect(await t.fk.events.ofProject(alice, ref).match(found, code)).toBe("not_found");
      });
    }

    for (const ref of NOTHING) {
      it(`${JSON.stringify(ref)} → not_found from the users, groups and projects services`, async () => {
        expect(await t.fk.users.findByIdOrUsername(ref).match(found, code)).toBe("not_found");
        expect(await t.fk.groups.findByIdOrPath(ref).match(found, code)).toBe("not_found");
        expect(await t.fk.projects.findByIdOrPath(ref).match(found, code)).toBe("not_found");
        if (typeof ref === "number") {
          expect(await t.fk.users.findById(ref).match(found, code)).toBe("not_found");
          expect(await t.fk.groups.findById(ref).match(found, code)).toBe("not_found");
          expect(await t.fk.projects.findById(ref).match(found, code)).toBe("not_found");
        } else {
          expect(await t.fk.users.findByUsername(ref).match(found, code)).toBe("not_found");
          expect(await t.fk.groups.findByFullPath(ref).match(found, code)).toBe("not_found");
          expect(await t.fk.projects.findByFullPath(ref).match(found, code)).toBe("not_found");
        }
      });
    }

    it("references that name records still find them", async () => {
      const { alice } = t.users;
      expect(await t.fk.iterations.groupsFor("grp").match(found, code)).toBe("ok");
      expect(await t.fk.iterations.groupsFor(String(t.groups.grp.id)).match(found, code)).toBe("ok");
      expect(await t.fk.notificationSettings.get(alice, { type: "project", id: "grp/public-project" }).match(found, code)).toBe("ok");
      expect(await t.fk.events.ofUser(alice, "bob").match(found, code)).toBe("ok");
      expect(await t.fk.events.ofProject(alice, t.projects.publicProject.id).match(found, code)).toBe("ok");
      expect(await t.fk.users.findByIdOrUsername("bob").match(found, code)).toBe("ok");
      expect(await t.fk.users.findByIdOrUsername(alice.id).match(found, code)).toBe("ok");
      expect(await t.fk.groups.findByIdOrPath(String(t.groups.grp.id)).match(found, code)).toBe("ok");
      expect(await t.fk.projects.findByIdOrPath("grp/public-project").match(found, code)).toBe("ok");
      expect(await t.fk.projects.findByIdOrPath(t.projects.publicProject.id).match(found, code)).toBe("ok");
    });
  });
}
