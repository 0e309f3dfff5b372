/**
 * The OAuth grants under contention on real databases (issue 3 "Concurrency"; checklist C1, D3):
 * 50 simultaneous redemptions of one code and 50 simultaneous refreshes with one refresh token,
 * through an instance on kyselyStore — SQLite always, PostgreSQL and MySQL / MariaDB when set.
 */
import { createForgekit, type Forgekit, type HttpResponse, type Store } from "@forgekit/core";
import { tokenDigest } from "@forgekit/core/internal";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyStore, sqlite } from "./index.js";
import { mysqlDatabase, postgresDatabase, sqliteDatabase, type TestDatabase } from "./test-databases.js";

const RACERS = 50;
const json = (r: HttpResponse) => JSON.parse(String(r.body)) as Record<string, unknown>;

function tokenRequest(fk: Forgekit, form: Record<string, string>) {
  const body = new TextEncoder().encode(new URLSearchParams(form).toString());
  return fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
}

/** The contention tests on one database; collected as skipped (so the run's summary counts them) when `run` is false. */
function contention(name: string, run: boolean, open: () => TestDatabase | Promise<TestDatabase>): void {
  describe.skipIf(!run)(`OAuth grants under contention: ${name}`, () => {
    let database: TestDatabase;
    let store: Store;
    let fk: Forgekit;
    let client: { client_id: string; client_secret: string };
    const redirect_uri = "https://app.example/cb";

    /** A code approved for the trusted app (the session resolves to the seeded user). */
    const code = async (): Promise<string> => {
      const query = new URLSearchParams({ client_id: client.client_id, redirect_uri, response_type: "code", scope: "api" }).toString();
      const r = await fk.handle({ method: "GET", path: "/oauth/authorize", rawQuery: query, headers: { cookie: "_service_session=signed-in" } });
      expect(r.status).toBe(302);
      return new URL(r.headers["Location"]!).searchParams.get("code")!;
    };

    beforeAll(async () => {
      database = await open();
      store = await database.makeStore();
      let userId = 0;
      fk = createForgekit({ baseUrl: "https://forge.example.com", store, session: { resolve: () => Promise.resolve(userId) }, logger: { log: () => undefined } });
      userId = (await fk.users.create({ username: "racer", name: "Racer", email: "racer@example.com" }))._unsafeUnwrap().id;
      const app = (await fk.oauth.applications.create({ name: "Racing", redirectUris: [redirect_uri], scopes: ["api"], trusted: true }))._unsafeUnwrap();
      client = { client_id: app.application.uid, client_secret: app.clientSecret };
    });
    afterAll(async () => {
      await store.close();
      await database.dispose();
    });

    it(`${RACERS} simultaneous redemptions of one code: exactly one success, the rest invalid_grant`, async () => {
      const c = await code();
      const results = await Promise.all(Array.from({ length: RACERS }, () => tokenRequest(fk, { grant_type: "authorization_code", code: c, redirect_uri, ...client })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 400)).toHaveLength(RACERS - 1);
      for (const r of results.filter((x) => x.status === 400)) expect(json(r)["error"]).toBe("invalid_grant");
    });

    it(`${RACERS} simultaneous refreshes with one refresh token: exactly one success, and the family revoked`, async () => {
      const first = await tokenRequest(fk, { grant_type: "authorization_code", code: await code(), redirect_uri, ...client });
      const refreshToken = String(json(first)["refresh_token"]);
      const results = await Promise.all(Array.from({ length: RACERS }, () => tokenRequest(fk, { grant_type: "refresh_token", refresh_token: refreshToken, ...client })));
      const wins = results.filter((r) => r.status === 200);
      expect(wins).toHaveLength(1);
      expect(results.filter((r) => r.status === 400)).toHaveLength(RACERS - 1);
      const pair = await store.oauth.oauthTokens.findByAccessDigest(tokenDigest(String(json(first)["access_token"])));
      const family = await store.oauth.oauthTokens.listByFamily(pair!.familyId);
      expect(family).toHaveLength(2);
      expect(family.every((t) => t.revokedAt !== null)).toBe(true);
      const winner = await fk.handle({ method: "GET", path: "/oauth/token/info", rawQuery: `access_token=${String(json(wins[0]!)["access_token"])}`, headers: {} });
      expect(winner.status).toBe(401);
    });
  });
}

describe("checklist H1 on SQLite: no plaintext secret in any OAuth table", () => {
  it("after code, refresh, replay, password and revoke flows, a dump of every forgekit_oauth_* table holds no issued secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "forgekit-oauth-dump-"));
    const file = join(dir, "dump.db");
    const store = kyselyStore(sqlite(file));
    try {
      let userId = 0;
      const fk = createForgekit({ baseUrl: "https://forge.example.com", store, session: { resolve: () => Promise.resolve(userId) }, logger: { log: () => undefined } });
      (await fk.migrate())._unsafeUnwrap();
      userId = (await fk.users.create({ username: "dumped", name: "D", email: "d@example.com", password: "dump-password-1" }))._unsafeUnwrap().id;
      const app = (await fk.oauth.applications.create({ name: "D", redirectUris: ["https://app.example/cb"], scopes: ["api", "openid"], trusted: true, ropcEnabled: true }))._unsafeUnwrap();
      const client = { client_id: app.application.uid, client_secret: app.clientSecret };
      const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: "https://app.example/cb", response_type: "code", scope: "api openid" }).toString();
      const authorized = await fk.handle({ method: "GET", path: "/oauth/authorize", rawQuery: query, headers: { cookie: "_service_session=x" } });
      const code = new URL(authorized.headers["Location"]!).searchParams.get("code")!;
      const first = json(await tokenRequest(fk, { grant_type: "authorization_code", code, redirect_uri: "https://app.example/cb", ...client }));
      const second = json(await tokenRequest(fk, { grant_type: "refresh_token", refresh_token: String(first["refresh_token"]), ...client }));
      expect((await tokenRequest(fk, { grant_type: "authorization_code", code, redirect_uri: "https://app.example/cb", ...client })).status).toBe(400);
      const password = json(await tokenRequest(fk, { grant_type: "password", username: "dumped", password: "dump-password-1", ...client }));
      const revokeBody = new TextEncoder().encode(new URLSearchParams({ token: String(password["access_token"]), ...client }).toString());
      expect((await fk.handle({ method: "POST", path: "/oauth/revoke", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: revokeBody })).status).toBe(200);
      const secrets = [app.clientSecret, code, "dump-password-1", ...[first, second, password].flatMap((t) => [t["access_token"], t["refresh_token"], t["id_token"]]).filter((v): v is string => typeof v === "string")];
      expect(secrets.length).toBeGreaterThanOrEqual(8);
      const db = new BetterSqlite3(file, { readonly: true });
      const tables = (db.prepare("select name from sqlite_master where type = 'table' and name like 'forgekit_oauth_%'").all() as { name: string }[]).map((t) => t.name);
      expect(tables.sort()).toEqual(["forgekit_oauth_applications", "forgekit_oauth_codes", "forgekit_oauth_keys", "forgekit_oauth_tokens", "forgekit_oauth_used_consents"]);
      const dump = JSON.stringify(tables.map((t) => db.prepare(`select * from ${t}`).all()));
      db.close();
      expect(dump).toContain(tokenDigest(String(second["access_token"])));
      for (const secret of secrets) expect(dump).not.toContain(secret);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

contention("SQLite", true, () => sqliteDatabase());
const postgresUrl = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
if (postgresUrl === "") console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — PostgreSQL OAuth contention tests skipped");
contention("PostgreSQL", postgresUrl !== "", () => postgresDatabase(postgresUrl));
const mysqlUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
if (mysqlUrl === "") console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — MySQL / MariaDB OAuth contention tests skipped");
contention("MySQL / MariaDB", mysqlUrl !== "", () => mysqlDatabase(mysqlUrl));
