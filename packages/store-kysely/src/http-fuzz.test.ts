/**
 * Property: whatever a client sends to any route of the real route table — NUL bytes, ids beyond
 * every integer column, over-long values, unicode, malformed encodings, random credentials and
 * sudo targets — the instance answers below 500, on every store (forgekit issue 8). The requests
 * go through the HTTP layer (`fk.handle`, which every adapter calls) of a seeded instance: SQLite
 * always; PostgreSQL and MySQL when FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL are set.
 *
 * FORGEKIT_HTTP_FUZZ_RUNS sets the number of requests per store (default 10,000) and
 * FORGEKIT_HTTP_FUZZ_SEED replays a run (the seed is printed).
 */
import { createTestForgekit, must } from "@forgekit/core/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzRequests, type FuzzWorld } from "./http-fuzz-requests.js";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

const RUNS = Number(process.env.FORGEKIT_HTTP_FUZZ_RUNS ?? "10000");
const SEED = process.env.FORGEKIT_HTTP_FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FORGEKIT_HTTP_FUZZ_SEED);

/** A seeded instance (tier ultimate, so every route is served) with iterations, error tracking, protected refs and a second token kind. */
async function seededWorld(database: TestDatabase) {
  const t = await createTestForgekit({ store: await database.makeStore(), tier: "ultimate" });
  const { grp, sub } = t.groups;
  const { publicProject } = t.projects;
  const iteration = await must(t.fk.iterations.create({ groupId: grp.id, title: "Sprint 1", startDate: "2024-04-29", dueDate: "2024-05-10" }));
  await must(t.fk.iterations.create({ groupId: sub.id, title: "Sub sprint", startDate: "2024-05-13", dueDate: "2024-05-24" }));
  await must(t.fk.errorTracking.putSettings(publicProject.id, { active: true, integrated: true }));
  const key = await must(t.fk.errorTracking.createClientKey(publicProject.id));
  const impersonation = await t.createToken(t.users.bob.id, { kind: "impersonation", name: "imp" });
  // Protected refs the :name routes can find (a branch wildcard and a tag).
  await must(t.fk.protectedRefs.protect({ projectId: publicProject.id, kind: "branch", name: "release/*", accessLevels: [{ action: "push", accessLevel: 40 }, { action: "merge", accessLevel: 30 }] }));
  await must(t.fk.protectedRefs.protect({ projectId: publicProject.id, kind: "tag", name: "v1", accessLevels: [{ action: "create", accessLevel: 40 }] }));
  const world: FuzzWorld = {
    routes: t.fk.routes,
    ids: [...Object.values(t.users), ...Object.values(t.groups), ...Object.values(t.projects), iteration, key, impersonation.token].map((r) => r.id),
    names: [...Object.values(t.users).map((u) => u.username), ...Object.values(t.groups).map((g) => g.fullPath), ...Object.values(t.projects).map((p) => p.fullPath), key.publicKey, "release/*", "v1"],
    tokens: [t.tokens.root, t.tokens.alice, t.tokens.bob, impersonation.plaintext],
  };
  return { t, world };
}

/** The fuzz run on one database; collected as skipped (so the run's summary counts it) when `run` is false. */
function fuzzOn(name: string, run: boolean, open: () => TestDatabase | Promise<TestDatabase>): void {
  describe.skipIf(!run)(`HTTP fuzz on ${name}`, () => {
    let database: TestDatabase | undefined;
    afterAll(async () => {
      await database?.dispose();
    });

    it(`answers no random request from the route table with a 5xx (${RUNS} requests)`, async () => {
      database = await open();
      const { t, world } = await seededWorld(database);
      const requests = fc.sample(fuzzRequests(world), { numRuns: RUNS, seed: SEED });
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      const started = performance.now();
      for (const r of requests) {
        const response = await t.fk.handle(r.request);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) failures.push(`${r.describe()} → ${response.status} ${String(response.body ?? "")}`);
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
      console.log(`store-kysely: HTTP fuzz on ${name}: ${requests.length} requests in ${seconds} s, ${failures.length} answered 5xx (seed ${SEED}); ${histogram}`);
      await must(t.fk.close());
      expect(requests.length).toBe(RUNS);
      // The requests reach the handlers, not only the router and the parameter checks: reads (200),
      // writes (204: ~130 deletes per run) and each refusal. A 201 is too rare (0–2 per 10,000 random
      // requests: a create needs every required field valid) to demand of an arbitrary seed.
      for (const status of [200, 204, 400, 401, 403, 404]) expect([status, statuses.get(status) ?? 0]).not.toEqual([status, 0]);
      // The first failure is in the message too: a CI log that keeps only the message still shows the request.
      expect(failures.slice(0, 20), `${failures.length} requests answered 5xx (seed ${SEED}); first: ${failures[0] ?? ""}`).toEqual([]);
    }, 180_000);
  });
}

fuzzOn("SQLite", true, sqliteDatabase);

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
fuzzOn("PostgreSQL", pgUrl !== "", () => postgresDatabase(pgUrl));
if (pgUrl === "") console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP fuzz test on PostgreSQL is skipped");

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
fuzzOn("MySQL", myUrl !== "", () => mysqlDatabase(myUrl));
if (myUrl === "") console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — the HTTP fuzz test on MySQL is skipped");
