/**
 * Concurrent first starts (issue 22): three quick-start processes started at the same moment on one
 * new database and one data folder all come up — migrations and the demo seed run one instance at a
 * time under the database's start-up lock (cli demo-lock.ts) — and all three print the same demo
 * tokens, which every instance accepts. On an SQLite file always, on PostgreSQL with
 * FORGEKIT_TEST_POSTGRES_URL (a database of its own, dropped afterwards).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { spawnMain, type MainProcess } from "./run-main.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-concurrent-starts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BANNER = /Try:[\s\S]*git clone/;

async function threeAtOnce(dataDir: string, databaseUrl: string): Promise<void> {
  const mains: MainProcess[] = [0, 1, 2].map(() => spawnMain(dataDir, { DATABASE_URL: databaseUrl }));
  try {
    // Each either prints its banner or exits (the failure this test guards against).
    const outcomes = await Promise.all(
      mains.map(async (main) => {
        const exited = main.exited.then(() => "exited" as const);
        for (;;) {
          if (BANNER.test(main.output())) return "up" as const;
          const state = await Promise.race([exited, new Promise<"waiting">((r) => setTimeout(() => r("waiting"), 100))]);
          if (state === "exited") return "exited" as const;
        }
      }),
    );
    expect(outcomes, mains.map((m) => m.output()).join("\n----\n")).toEqual(["up", "up", "up"]);
    const urls = mains.map((m) => /serving (http:\/\/localhost:\d+)\/api\/v4/.exec(m.output())?.[1] ?? "");
    const tokens = mains.map((m) => /PRIVATE-TOKEN: (\S+)'/.exec(m.output())?.[1] ?? "");
    // The seed ran once; the others found its records and its token file.
    expect(new Set(tokens).size).toBe(1);
    for (const url of urls) {
      const me = await fetch(`${url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": tokens[0] ?? "" } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ username: "alice" });
      const projects = (await (await fetch(`${url}/api/v4/projects`)).json()) as { path_with_namespace: string }[];
      expect(projects.map((p) => p.path_with_namespace)).toEqual(["demo/website"]);
    }
  } finally {
    for (const main of mains) main.child.kill("SIGTERM");
    await Promise.all(mains.map((m) => m.exited));
  }
}

describe("three quick-start instances started at the same moment on one database", { timeout: 180_000 }, () => {
  it("all come up on one SQLite file and print the same working demo tokens", async () => {
    const data = join(dir, "sqlite");
    await threeAtOnce(data, join(data, "forgekit.db"));
  });

  const url = process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? "";
  it.skipIf(url === "")("all come up on one PostgreSQL database and print the same working demo tokens", async () => {
    const name = `forgekit_test_starts_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    try {
      const target = new URL(url);
      target.pathname = `/${name}`;
      await threeAtOnce(join(dir, "postgres"), target.toString());
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
