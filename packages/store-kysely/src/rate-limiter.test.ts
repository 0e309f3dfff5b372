/**
 * `kyselyRateLimiter`: the limiter conformance suite (core testing) on SQLite always, PostgreSQL and
 * MySQL / MariaDB when their URLs are set — each database migrated once, each test on its own keys —
 * plus what the SQL limiter adds: windows on the caller's clock, and two instances (two limiters with
 * their own connections) sharing one count.
 */
import { rateLimitKeys } from "@forgekit/core";
import { runRateLimiterConformance } from "@forgekit/core/testing";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import { sqlite } from "./dialects/sqlite.js";
import type { DialectConfig } from "./dialects/traits.js";
import { kyselyRateLimiter } from "./rate-limiter.js";
import { kyselyStore } from "./store.js";
import { dropPostgresSchema, freshMysqlDatabase, uniqueSchemaName } from "./test-databases.js";

const t = (s: number) => new Date(Date.UTC(2030, 0, 1) + s * 1000);

function onDatabase(title: string, run: boolean, open: () => Promise<{ config: () => DialectConfig; drop: () => Promise<void> }>): void {
  describe.skipIf(!run)(title, () => {
    let database: { config: () => DialectConfig; drop: () => Promise<void> } | undefined;
    const ready = async () => {
      if (database === undefined) {
        database = await open();
        const store = kyselyStore(database.config());
        await store.migrate();
        await store.close();
      }
      return database;
    };
    afterAll(async () => {
      await database?.drop();
    });

    runRateLimiterConformance(`kyselyRateLimiter (${title}): the limiter conformance suite`, async (options) => kyselyRateLimiter((await ready()).config(), options));

    describe("kyselyRateLimiter on the caller's clock", () => {
      it("blocks after N failures, counts down on the passed time, and lifts the block when the window ends", async () => {
        const l = kyselyRateLimiter((await ready()).config(), { maxFailures: 3, windowSeconds: 60 });
        const key = rateLimitKeys.client(`clock-${Math.random()}`);
        try {
          for (let i = 0; i < 3; i++) await l.recordFailure(key, t(i));
          expect(await l.retryAfter(key, t(10))).toBe(50);
          expect(await l.retryAfter(key, t(59.5))).toBe(1);
          expect(await l.retryAfter(key, t(60))).toBe(0);
          // The next failure after the window starts a new one with one failure.
          await l.recordFailure(key, t(61));
          expect(await l.retryAfter(key, t(62), 1)).toBe(59);
          expect(await l.retryAfter(key, t(62), 2)).toBe(0);
        } finally {
          await l.close();
        }
      });

      it("stores a long key from another caller as its digest, so it still counts", async () => {
        const l = kyselyRateLimiter((await ready()).config(), { maxFailures: 1, windowSeconds: 60 });
        const long = `x${Math.random()}`.repeat(10_000);
        try {
          await l.recordFailure(long, t(0));
          expect(await l.retryAfter(long, t(1))).toBe(59);
          expect(await l.retryAfter(`${long}y`, t(1))).toBe(0);
        } finally {
          await l.close();
        }
      });

      it("shares one count between two instances (two limiters, their own connections)", async () => {
        const [a, b] = [kyselyRateLimiter((await ready()).config(), { maxFailures: 40, windowSeconds: 60 }), kyselyRateLimiter((await ready()).config(), { maxFailures: 40, windowSeconds: 60 })];
        const key = rateLimitKeys.password(`shared-${Math.random()}`, "192.0.2.7");
        try {
          await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).recordFailure(key, t(1))));
          expect(await a.retryAfter(key, t(2))).toBe(59);
          expect(await b.retryAfter(key, t(2))).toBe(59);
          await b.reset(key);
          expect(await a.retryAfter(key, t(2))).toBe(0);
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
      });
    });
  });
}

{
  const dir = mkdtempSync(join(tmpdir(), "forgekit-rl-"));
  const file = join(dir, "rl.sqlite");
  onDatabase("SQLite", true, () => Promise.resolve({ config: () => sqlite(file), drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) }));
}

{
  const url = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
  const schema = uniqueSchemaName();
  onDatabase("PostgreSQL", url !== "", () =>
    Promise.resolve({
      config: () => postgres(url, { schema, max: 4 }),
      drop: () => dropPostgresSchema(url, schema),
    }),
  );
}

{
  const url = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
  onDatabase("MySQL / MariaDB", url !== "", async () => {
    const fresh = await freshMysqlDatabase(url);
    return { config: () => mysql(fresh.url, { connectionLimit: 4 }), drop: fresh.drop };
  });
}
