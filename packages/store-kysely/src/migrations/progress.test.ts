/**
 * Migration progress (issue 13 "long-running CLI work shows progress"): `store.migrate({ onProgress })`
 * hears each pending migration start and finish, in order, with its position among those this call
 * applies and how long it took.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MigrationProgress } from "@forgekit/core";
import { Kysely, Migrator } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqlite, sqliteTraits } from "../dialects/sqlite.js";
import { kyselyStore } from "../store.js";
import { MIGRATION_NAMES, migrationProvider, migrationReporter } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "forgekit-migrate-progress-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const recorded = () => {
  const events: MigrationProgress[] = [];
  return { events, onProgress: (p: MigrationProgress) => void events.push(p) };
};

describe("store.migrate({ onProgress })", () => {
  it("a fresh database: every migration starts then finishes, in order, numbered 1..total", async () => {
    const store = kyselyStore(sqlite(join(dir, "fresh.db")));
    const { events, onProgress } = recorded();
    try {
      const report = await store.migrate({ onProgress });
      const total = MIGRATION_NAMES.length;
      expect(report?.applied).toEqual(MIGRATION_NAMES);
      expect(events.map((e) => [e.phase, e.name, e.index, e.total])).toEqual(
        MIGRATION_NAMES.flatMap((name, i) => [
          ["started", name, i + 1, total],
          ["finished", name, i + 1, total],
        ]),
      );
      expect(events.filter((e) => e.phase === "started").every((e) => e.elapsedMs === 0)).toBe(true);
      expect(events.every((e) => e.elapsedMs >= 0)).toBe(true);
      const totals = events.map((e) => e.totalElapsedMs);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
    } finally {
      await store.close();
    }
  });

  it("a partly migrated database: only the pending migrations are reported, numbered among themselves", async () => {
    const path = join(dir, "partly.db");
    const config = sqlite(path);
    const db = new Kysely<unknown>({ dialect: config.dialect });
    const migrator = new Migrator({
      db,
      provider: migrationProvider(sqliteTraits),
      migrationTableName: "forgekit_migrations",
      migrationLockTableName: "forgekit_migrations_lock",
    });
    expect((await migrator.migrateTo(MIGRATION_NAMES[2]!)).error).toBeUndefined();
    await db.destroy();

    const store = kyselyStore(sqlite(path));
    const { events, onProgress } = recorded();
    try {
      await store.migrate({ onProgress });
      const pending = MIGRATION_NAMES.slice(3);
      const finished = events.filter((e) => e.phase === "finished");
      expect(finished.map((e) => [e.name, e.index, e.total])).toEqual(pending.map((name, i) => [name, i + 1, pending.length]));
    } finally {
      await store.close();
    }
  });

  it("an up-to-date database reports nothing; a throwing callback does not stop the migration", async () => {
    const store = kyselyStore(sqlite(join(dir, "again.db")));
    try {
      await store.migrate({
        onProgress: () => {
          throw new Error("display broke");
        },
      });
      const { events, onProgress } = recorded();
      expect(await store.migrate({ onProgress })).toEqual({ applied: [] });
      expect(events).toEqual([]);
      expect(await store.users.create({ username: "after", name: "After" }, new Date())).not.toBeNull();
    } finally {
      await store.close();
    }
  });
});

describe("migrationReporter", () => {
  it("times each migration with the clock and never reports an index above the total", async () => {
    let t = 100;
    const { events, onProgress } = recorded();
    const reporter = migrationReporter(onProgress, () => t);
    reporter.expect(1);
    const slow = reporter.wrap("0001_a", {
      up: () => {
        t += 40;
        return Promise.resolve();
      },
    });
    const next = reporter.wrap("0002_b", { up: () => Promise.resolve() });
    t = 110;
    await slow.up(undefined as never);
    await next.up(undefined as never);
    expect(events).toEqual([
      { name: "0001_a", index: 1, total: 1, phase: "started", elapsedMs: 0, totalElapsedMs: 10 },
      { name: "0001_a", index: 1, total: 1, phase: "finished", elapsedMs: 40, totalElapsedMs: 50 },
      { name: "0002_b", index: 2, total: 2, phase: "started", elapsedMs: 0, totalElapsedMs: 50 },
      { name: "0002_b", index: 2, total: 2, phase: "finished", elapsedMs: 0, totalElapsedMs: 50 },
    ]);
  });

  it("without a callback leaves migrations as they are", () => {
    const migration = { up: () => Promise.resolve() };
    expect(migrationReporter(undefined).wrap("0001_a", migration)).toBe(migration);
  });
});
