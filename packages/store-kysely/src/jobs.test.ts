/**
 * The jobs conformance suite (core testing/jobs-conformance) on every database of the matrix, each
 * test with two stores on one database standing for two processes: SQLite always (two stores on one
 * file), PostgreSQL and MySQL / MariaDB when their URLs are set (two pools on one schema/database).
 */
import { createForgekit } from "@forgekit/core";
import { runJobsConformance, type JobsTarget } from "@forgekit/core/testing";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";
import { kyselyStore } from "./store.js";
import { dropPostgresSchema, freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

const RACES = 200;

/** A fresh SQLite file per test, opened by two stores. */
describe("SQLite", () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-jobs-"));
  let files = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  runJobsConformance(
    "kyselyStore(sqlite).jobs",
    async () => {
      files += 1;
      const path = join(dir, `jobs-${files}.sqlite`);
      const store = kyselyStore(sqlite(path));
      await store.migrate();
      return { store, rival: kyselyStore(sqlite(path)) };
    },
    { races: RACES },
  );
});

/**
 * Two stores over one migrated schema or database, each with its own small pool (as two processes
 * would be); the jobs table is emptied before each test.
 */
function sharedDatabase(name: string, title: string, run: boolean, open: () => Promise<{ config: () => DialectConfig; drop: () => Promise<void> }>): void {
  // Collected as skipped (so the run's summary counts the tests) when `run` is false.
  describe.skipIf(!run)(title, () => {
    let database: { config: () => DialectConfig; drop: () => Promise<void> } | undefined;
    afterAll(async () => {
      await database?.drop();
    });
    runJobsConformance(
      `kyselyStore(${name}).jobs`,
      async (): Promise<JobsTarget> => {
        if (database === undefined) {
          database = await open();
          const first = kyselyStore(database.config());
          await first.migrate();
          await first.close();
        }
        const store = kyselyStore(database.config());
        const rival = kyselyStore(database.config());
        await clearJobs(database.config());
        return { store, rival };
      },
      { races: RACES },
    );
  });
}

/** Deletes every job, on a connection of its own that is closed at once. */
async function clearJobs(config: DialectConfig): Promise<void> {
  const db = new Kysely<{ forgekit_jobs: { id: number } }>({ dialect: config.dialect });
  try {
    await (config.schema === undefined ? db : db.withSchema(config.schema)).deleteFrom("forgekit_jobs").execute();
  } finally {
    await db.destroy();
  }
}

const configured = (variable: string, what: string): boolean => {
  const set = (process.env[variable] ?? "") !== "";
  if (!set) console.log(`store-kysely: ${variable} is not set — ${what} jobs conformance skipped`);
  return set;
};

{
  const url = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
  const schema = uniqueSchemaName();
  sharedDatabase("postgres", "PostgreSQL", configured("FORGEKIT_TEST_POSTGRES_URL", "PostgreSQL"), () =>
    Promise.resolve({
      config: () => postgres(url, { schema, max: 3 }),
      drop: () => dropPostgresSchema(url, schema),
    }),
  );
}

{
  const url = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
  sharedDatabase("mysql", "MySQL / MariaDB", configured("FORGEKIT_TEST_MYSQL_URL", "MySQL / MariaDB"), async () => {
    const fresh = await freshMysqlDatabase(url);
    return { config: () => mysql(fresh.url, { connectionLimit: 3 }), drop: fresh.drop };
  });
}

describe("workers on an unreachable database", () => {
  it("log each failed poll as unavailable, back off, keep running and stop cleanly", async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    const store = kyselyStore(postgres("postgres://postgres@127.0.0.1:1/forgekit", { max: 1 }));
    const logs: { event: string; fields?: Record<string, unknown> }[] = [];
    const fk = createForgekit({ baseUrl: "https://forge.example.com", store, logger: { log: (_level, event, fields) => void logs.push(fields === undefined ? { event } : { event, fields }) } });
    fk.workers.start({ pollIntervalMs: 5, maxErrorBackoffMs: 20 })._unsafeUnwrap();
    try {
      const deadline = Date.now() + 100_000;
      while (logs.filter((l) => l.event === "jobs.poll_failed").length < 3) {
        if (Date.now() > deadline) throw new Error(`no failed polls logged: ${JSON.stringify(logs)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(fk.workers.running).toBe(true);
    } finally {
      await fk.workers.stop();
      await store.close();
    }
    const failed = logs.filter((l) => l.event === "jobs.poll_failed");
    expect(failed.every((l) => l.fields?.["unavailable"] === true)).toBe(true);
    // Backoff: the pauses grow (5 ms × 2^n) up to the 20 ms cap.
    expect(failed.slice(0, 3).map((l) => l.fields?.["retryInMs"])).toEqual([10, 20, 20]);
  });
});
