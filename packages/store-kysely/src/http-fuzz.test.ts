/**
 * Property: whatever a client sends to any route of the real route table — NUL bytes, ids beyond
 * every integer column, over-long values, unicode, malformed encodings, random credentials and
 * sudo targets — the instance answers below 500, on every store (forgekit issue 8). The requests
 * go through the HTTP layer (`fk.handle`, which every adapter calls) of a seeded instance: SQLite
 * always; PostgreSQL and MySQL when FORGEKIT_TEST_POSTGRES_URL / FORGEKIT_TEST_MYSQL_URL are set.
 *
 * The git smart-HTTP routes (`fk.gitHttp.handle`, which the Node layer and the fetch handler call)
 * get the same treatment: paths with NUL bytes and malformed escapes, garbage credentials, and
 * bodies that are not git requests (forgekit issue 23).
 *
 * FORGEKIT_HTTP_FUZZ_RUNS sets the number of requests per store (default 10,000),
 * FORGEKIT_HTTP_FUZZ_GIT_RUNS the number of git requests (default 1,000), and
 * FORGEKIT_HTTP_FUZZ_SEED replays a run (the seed is printed).
 */
import { createTestForgekit, must } from "@forgekit/core/testing";
import type { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzGitRequests } from "./http-fuzz-git-requests.js";
import { fuzzRequests, type FuzzWorld } from "./http-fuzz-requests.js";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

const RUNS = Number(process.env.FORGEKIT_HTTP_FUZZ_RUNS ?? "10000");
/** Git requests per store (each that gets past the credential check runs a git process). */
const GIT_RUNS = Number(process.env.FORGEKIT_HTTP_FUZZ_GIT_RUNS ?? "1000");
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
  // A label, so the label routes find one by id or title (and its issue link is renamed or deleted).
  const label = await must(t.fk.issues.create({ projectId: publicProject.id, authorId: t.users.alice.id, title: "labelled", labels: ["bug"] })).then(() => t.store.imports.labels.findByName(publicProject.id, "bug"));
  const review = await seedMergeRequest(t, publicProject.id);
  // Protected refs the :name routes can find (a branch wildcard and a tag).
  await must(t.fk.protectedRefs.protect({ projectId: publicProject.id, kind: "branch", name: "release/*", accessLevels: [{ action: "push", accessLevel: 40 }, { action: "merge", accessLevel: 30 }] }));
  await must(t.fk.protectedRefs.protect({ projectId: publicProject.id, kind: "tag", name: "v1", accessLevels: [{ action: "create", accessLevel: 40 }] }));
  // An issue with a discussion, so the discussion routes' placeholders can name real records.
  const issue = await must(t.fk.issues.create({ projectId: publicProject.id, authorId: t.users.alice.id, title: "Fuzzed" }));
  const note = await must(t.fk.notes.create({ on: { type: "Issue", projectId: publicProject.id, iid: issue.iid }, authorId: t.users.bob.id, body: "thread" }));
  const world: FuzzWorld = {
    routes: t.fk.routes,
    ids: [...[...Object.values(t.users), ...Object.values(t.groups), ...Object.values(t.projects), iteration, key, impersonation.token, issue, note, ...(label === null ? [] : [label])].map((r) => r.id), ...review.ids],
    names: [...Object.values(t.users).map((u) => u.username), ...Object.values(t.groups).map((g) => g.fullPath), ...Object.values(t.projects).map((p) => p.fullPath), key.publicKey, "bug", "release/*", "v1", note.discussionId, ...review.names],
    tokens: [t.tokens.root, t.tokens.alice, t.tokens.bob, impersonation.plaintext],
  };
  return { t, world };
}

/**
 * A merge request with a version, an approval and an approval rule in the public project, so the
 * merge-request routes (versions, closes_issues, approvals, a commit's merge requests) reach their
 * handlers' depths: its iid, version and rule ids, and the commit shas join the fuzzed values.
 */
async function seedMergeRequest(t: Awaited<ReturnType<typeof createTestForgekit>>, projectId: number): Promise<{ ids: number[]; names: string[] }> {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await t.fk.handle({ method, path: `/api/v4/projects/${projectId}${path}`, rawQuery: "", headers: { "private-token": t.tokens.root, "content-type": "application/json" }, body: new TextEncoder().encode(JSON.stringify(body)) });
    expect(response.status, `${method} ${path}: ${String(response.body)}`).toBeLessThan(300);
    return JSON.parse(String(response.body)) as Record<string, unknown>;
  };
  const main = await call("POST", "/repository/commits", { branch: "main", commit_message: "Closes #1", actions: [{ action: "create", file_path: "a.txt", content: "a" }] });
  const feature = await call("POST", "/repository/commits", { branch: "feature", start_branch: "main", commit_message: "Fixes #2", actions: [{ action: "create", file_path: "b.txt", content: "b" }] });
  const mr = await call("POST", "/merge_requests", { source_branch: "feature", target_branch: "main", title: "Resolves #1" });
  await call("POST", "/approvals", { merge_requests_author_approval: true });
  await call("POST", `/merge_requests/${String(mr["iid"])}/approve`, {});
  const rule = await call("POST", "/approval_rules", { name: "Fuzz", approvals_required: 1, user_ids: [t.users.alice.id] });
  const versions = await t.fk.store.mergeRequestVersions.list(Number(mr["id"]));
  return { ids: [Number(mr["iid"]), Number(rule["id"]), ...versions.map((v) => v.id)], names: [String(main["id"]), String(feature["id"])] };
}

/** The fuzz run on one database; collected as skipped (so the run's summary counts it) when `run` is false. */
function fuzzOn(name: string, run: boolean, open: () => TestDatabase | Promise<TestDatabase>): void {
  describe.skipIf(!run)(`HTTP fuzz on ${name}`, () => {
    const databases: TestDatabase[] = [];
    const database = async () => {
      const opened = await open();
      databases.push(opened);
      return opened;
    };
    afterAll(async () => {
      for (const opened of databases.splice(0)) await opened.dispose();
    });

    it(`answers no random request from the route table with a 5xx (${RUNS} requests)`, async () => {
      const { t, world } = await seededWorld(await database());
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

    it(`answers no random git smart-HTTP request with a 5xx (${GIT_RUNS} requests)`, async () => {
      const { t, world } = await seededWorld(await database());
      const requests = fc.sample(fuzzGitRequests(world), { numRuns: GIT_RUNS, seed: SEED });
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      for (const r of requests) {
        const response = await t.fk.gitHttp.handle(r.request());
        await drain(response.body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) failures.push(`${r.describe()} → ${response.status} ${typeof response.body === "string" ? response.body : "(stream)"}`);
      }
      const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
      console.log(`store-kysely: git HTTP fuzz on ${name}: ${requests.length} requests, ${failures.length} answered 5xx (seed ${SEED}); ${histogram}`);
      await must(t.fk.close());
      // The requests reach git (200), the credential check (401, 404) and the request checks (400, 403, 415).
      for (const status of [200, 400, 401, 403, 404, 415]) expect([status, statuses.get(status) ?? 0]).not.toEqual([status, 0]);
      expect(failures.slice(0, 20), `${failures.length} git requests answered 5xx (seed ${SEED}); first: ${failures[0] ?? ""}`).toEqual([]);
    }, 180_000);
  });
}

/** Reads a response body to its end (a git failure mid-stream ends it early, which is not a status). */
async function drain(body: string | Readable): Promise<void> {
  if (typeof body === "string") return;
  try {
    for await (const _ of body) {
      // discard
    }
  } catch {
    // A stream that git ended early.
  }
}

fuzzOn("SQLite", true, sqliteDatabase);

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
fuzzOn("PostgreSQL", pgUrl !== "", () => postgresDatabase(pgUrl));
if (pgUrl === "") console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP fuzz test on PostgreSQL is skipped");

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
fuzzOn("MySQL", myUrl !== "", () => mysqlDatabase(myUrl));
if (myUrl === "") console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — the HTTP fuzz test on MySQL is skipped");
