/**
 * Concurrent first starts (issue 22): three quick-start processes started at the same moment on one
 * new database and one data folder all come up — migrations and the demo seed run one instance at a
 * time under the database's start-up lock (cli demo-lock.ts) — and all three print the same demo
 * tokens, which every instance accepts; a visitor signed in through one is signed in on all (sessions in
 * the database), and password-grant failures are counted once for all three. On an SQLite file always, on PostgreSQL with
 * FORGEKIT_TEST_POSTGRES_URL (a database of its own, dropped afterwards).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromUrl } from "@forgekit/store-kysely";
import { Kysely, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { spawnMain, type MainProcess } from "./run-main.js";

// Creating and dropping a database waits for other sessions of the server (other tests make and drop theirs):
// on a loaded machine that outlasts the store's default 15 s statement timeout.
const ADMIN_LIMITS = { statementTimeoutMs: 170_000, lockTimeoutMs: 170_000 };

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
    await sessionsAreShared(urls, mains[0]?.output() ?? "");
    await throttledAcross(urls);
  } finally {
    for (const main of mains) main.child.kill("SIGTERM");
    await Promise.all(mains.map((m) => m.exited));
  }
}

/**
 * Signed in through one instance, the consent page shows on the others; signed out through one, the
 * others send the visitor to sign in (sessions live in the database: cli demo-sessions.ts).
 */
async function sessionsAreShared(urls: string[], banner: string): Promise<void> {
  const authorize = /(\/oauth\/authorize\?\S+)/.exec(banner)?.[1];
  expect(authorize, banner).toBeDefined();
  const [a = "", b = "", c = ""] = urls;
  const signIn = await fetch(`${a}/users/sign_in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "alice", password: "alice-demo-password", return_to: "/" }).toString(),
    redirect: "manual",
  });
  expect(signIn.status).toBe(303);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  expect(cookie).toMatch(/^_service_session=/);
  for (const url of [b, c]) {
    const consent = await fetch(`${url}${authorize}`, { headers: { cookie }, redirect: "manual" });
    expect(consent.status).toBe(200);
    expect(await consent.text()).toMatch(/<form/);
  }
  const signOut = await fetch(`${c}/users/sign_out`, { method: "POST", headers: { cookie }, redirect: "manual" });
  expect(signOut.status).toBe(303);
  const after = await fetch(`${a}${authorize}`, { headers: { cookie }, redirect: "manual" });
  expect(after.status).toBe(302);
  expect(after.headers.get("location")).toContain("/users/sign_in");
}

/**
 * Password-grant failures spread round-robin over the instances are throttled at the same count as
 * on one (10 failures, the 11th attempt refused): the demo counts them in the database.
 */
async function throttledAcross(urls: string[]): Promise<void> {
  const attempt = (url: string, password: string) =>
    fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username: "bob", password }).toString(),
    });
  for (let i = 0; i < 10; i++) expect((await attempt(urls[i % urls.length] ?? "", `wrong-${i}`)).status).toBe(400);
  const refused = await attempt(urls[10 % urls.length] ?? "", "bob-demo-password");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("three quick-start instances started at the same moment on one database (first starts, shared sign-in sessions)", { timeout: 600_000 }, () => {
  it("all come up on one SQLite file and print the same working demo tokens", async () => {
    const data = join(dir, "sqlite");
    await threeAtOnce(data, join(data, "forgekit.db"));
  });

  const url = process.env["FORGEKIT_TEST_POSTGRES_URL"] ?? "";
  it.skipIf(url === "")("all come up on one PostgreSQL database and print the same working demo tokens", async () => {
    const name = `forgekit_test_starts_${process.pid}_${Date.now().toString(36)}`;
    const admin = new Kysely<unknown>({ dialect: fromUrl(url, { postgres: { max: 1, ...ADMIN_LIMITS } }).dialect });
    await sql`create database ${sql.id(name)}`.execute(admin);
    try {
      const target = new URL(url);
      target.pathname = `/${name}`;
      await threeAtOnce(join(dir, "postgres"), target.toString());
    } finally {
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    }
  });
});
