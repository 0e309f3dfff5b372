/**
 * Race-free "create on first write" over HTTP (forgekit issue 8): many concurrent requests by one
 * brand-new user that each create the same row on first use must all answer 200 and leave exactly
 * one row, on SQLite always and on PostgreSQL / MySQL when their test URLs are set.
 */
import { createServer } from "node:http";
import { inspect } from "node:util";
import type { Store } from "@forgekit/core";
import { createNodeHandler } from "@forgekit/core/node";
import { createTestForgekit, listenOn, type ServedInstance, type TestForgekit } from "@forgekit/core/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStore, mysql, postgres, sqlite } from "./index.js";
import { freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

const CALLERS = 50;

interface Target {
  readonly databases: string;
  /** False: the database's variable is unset; the tests are collected as skipped, so the run's summary counts them. */
  readonly run?: boolean;
  make(): Promise<Store>;
  cleanup(): Promise<void>;
}

/** A database whose variable is unset: its tests are skipped, so nothing is opened. */
const notConfigured = (databases: string): Target => ({
  databases,
  run: false,
  make: () => Promise.reject(new Error(`${databases} is not configured`)),
  cleanup: () => Promise.resolve(),
});

function targets(): Target[] {
  const list: Target[] = [
    { databases: "SQLite", make: () => Promise.resolve(kyselyStore(sqlite(":memory:"))), cleanup: () => Promise.resolve() },
  ];
  const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
  if (pgUrl !== undefined && pgUrl !== "") {
    const pool = new pg.Pool({ connectionString: pgUrl, max: 10 });
    const schemas: string[] = [];
    list.push({
      databases: "PostgreSQL",
      make: () => {
        const schema = uniqueSchemaName();
        schemas.push(schema);
        return Promise.resolve(kyselyStore(postgres(pool, { schema })));
      },
      async cleanup() {
        for (const schema of schemas) await pool.query(`drop schema if exists "${schema}" cascade`);
        await pool.end();
      },
    });
  } else {
    console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — first-write races on PostgreSQL skipped");
    list.push(notConfigured("PostgreSQL"));
  }
  const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL;
  if (myUrl !== undefined && myUrl !== "") {
    const opened: { drop: () => Promise<void>; store: Store }[] = [];
    list.push({
      databases: "MySQL",
      async make() {
        const fresh = await freshMysqlDatabase(myUrl);
        const store = kyselyStore(mysql(fresh.url));
        opened.push({ drop: fresh.drop, store });
        return store;
      },
      async cleanup() {
        for (const { store, drop } of opened) {
          await store.close();
          await drop();
        }
      },
    });
  } else {
    console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — first-write races on MySQL skipped");
    list.push(notConfigured("MySQL"));
  }
  return list;
}

for (const target of targets()) {
  describe.skipIf(target.run === false)(`first writes over HTTP on ${target.databases}`, () => {
    let t: TestForgekit;
    let served: ServedInstance;
    /** What the instance logged as errors (a 500's cause), shown when a test fails. */
    const logged: string[] = [];
    beforeAll(async () => {
      const logger = {
        log(level: string, event: string, fields?: Record<string, unknown>) {
          const message = fields?.["message"];
          if (level === "error") logged.push(`${event}: ${typeof message === "string" ? message : inspect(fields)}`);
        },
      };
      t = await createTestForgekit({ store: await target.make(), logger });
      served = await listenOn(createServer(createNodeHandler(t.fk)));
    });
    afterAll(async () => {
      await served.close();
      await t.store.close();
      await target.cleanup();
    });

    /** A brand-new user and a token of theirs. */
    const newcomer = async (name: string) => {
      const user = await t.createUser({ username: name });
      return { user, token: (await t.createToken(user.id)).plaintext };
    };

    /** Sends `CALLERS` requests at once; how many answered each status. */
    const burst = async (method: string, path: string, token: string, body: (i: number) => unknown) => {
      const answered = await Promise.all(
        Array.from({ length: CALLERS }, async (_, i) => {
          const response = await fetch(`${served.url}/api/v4${path}`, {
            method,
            headers: { "private-token": token, "content-type": "application/json" },
            body: JSON.stringify(body(i)),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      const statuses: Record<number, number> = {};
      for (const status of answered) statuses[status] = (statuses[status] ?? 0) + 1;
      return { statuses };
    };

    for (const [label, source, path] of [
      ["PUT /notification_settings", { type: "global" }, () => "/notification_settings"],
      ["PUT /groups/:id/notification_settings", { type: "group" }, () => `/groups/${t.groups.grp.id}/notification_settings`],
      ["PUT /projects/:id/notification_settings", { type: "project" }, () => `/projects/${t.projects.publicProject.id}/notification_settings`],
    ] as const) {
      it(`${label} - ${CALLERS} concurrent first writes by one new user all answer 200 and leave one row`, async () => {
        const { user, token } = await newcomer(`nf-${source.type}`);
        const { statuses } = await burst("PUT", path(), token, (i) => ({ level: i % 2 === 0 ? "watch" : "participating" }));
        expect({ statuses, logged: logged.slice(0, 2) }).toEqual({ statuses: { 200: CALLERS }, logged: [] });
        const full = source.type === "global" ? source : { type: source.type, id: source.type === "group" ? t.groups.grp.id : t.projects.publicProject.id };
        expect(await t.store.notificationSettings.listForUsers([user.id], [full])).toHaveLength(1);
      });
    }

    it(`PUT /projects/:id/error_tracking/settings - ${CALLERS} concurrent first writes all answer 200 and leave one row`, async () => {
      const project = await t.createProject({ namespaceId: t.groups.grp.id, path: "first-write-errors", name: "first-write-errors", visibility: "private", creatorId: t.users.alice.id });
      const { statuses } = await burst("PUT", `/projects/${project.id}/error_tracking/settings`, t.tokens.alice, (i) => ({ active: i % 2 === 0, integrated: true }));
      expect({ statuses, logged: logged.slice(0, 2) }).toEqual({ statuses: { 200: CALLERS }, logged: [] });
      expect(await t.store.errorTracking.settings.find(project.id)).toMatchObject({ projectId: project.id, integrated: true });
    });
  });
}
