/**
 * Statements per request on SQLite for the hot routes (issues 12 and 21): each one is a round trip
 * on the hot path, so their number is pinned here, deterministically (no timing). A request that
 * reads a row twice, or a lookup the request already made, shows up as a higher count.
 */
import BetterSqlite3 from "better-sqlite3";
import { createTestForgekit, type TestForgekit } from "@forgekit/core/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { kyselyStore, sqlite } from "./index.js";
import { recordingSqlite } from "./recording-sqlite.js";

const raw = new BetterSqlite3(":memory:");
const log: string[] = [];
let recording = false;
/** The driver's database, recording every statement run while `recording` is on. */
const database = recordingSqlite(raw, ({ sql }) => {
  if (recording) log.push(sql.replace(/\s+/g, " "));
});

let t: TestForgekit;
/** Who the host's session signs in (the OAuth authorization step of the refresh grant). */
let sessionUser = 0;
beforeAll(async () => {
  t = await createTestForgekit({ store: kyselyStore(sqlite(database)), session: { resolve: () => Promise.resolve(sessionUser) } });
  sessionUser = t.users.alice.id;
  const project = t.projects.publicProject;
  for (let i = 0; i < 3; i++) (await t.fk.events.record({ projectId: project.id, authorId: t.users.alice.id, action: "created", target: { type: "Issue", id: i + 1, iid: i + 1, title: `issue ${i}` } }))._unsafeUnwrap();
});
afterAll(() => raw.close());

/** The statements `run` issues while recording. */
async function recorded(run: () => Promise<void>): Promise<string[]> {
  log.length = 0;
  recording = true;
  try {
    await run();
  } finally {
    recording = false;
  }
  return [...log];
}

/** Waits until the user's activity day is stored (written after the response, not awaited by it). */
async function activityRecorded(userId: number): Promise<void> {
  await vi.waitFor(async () => expect((await t.store.users.findById(userId))?.lastActivityOn).not.toBeNull(), { timeout: 30_000, interval: 5 });
}

/**
 * The statements one GET runs (after a first, warming request, and the activity day that first
 * request of the day writes: a statement of its own, after the response).
 */
async function statementsOf(path: string, token: string): Promise<string[]> {
  const [pathname, rawQuery = ""] = path.split("?") as [string, string?];
  const get = () => t.fk.handle({ method: "GET", path: pathname, rawQuery, headers: { "private-token": token } });
  expect((await get()).status).toBe(200);
  const caller = token === t.tokens.alice ? t.users.alice : token === t.tokens.bob ? t.users.bob : t.users.root;
  await activityRecorded(caller.id);
  log.length = 0;
  recording = true;
  try {
    expect((await get()).status).toBe(200);
  } finally {
    recording = false;
  }
  return [...log];
}

describe("statements per authenticated read (SQLite)", () => {
  it("GET /projects/:id: 1 (token, user, project, namespace chain, both permission levels, open issues and import status in one statement)", async () => {
    const statements = await statementsOf(`/api/v4/projects/${t.projects.publicProject.id}`, t.tokens.alice);
    expect(statements).toHaveLength(1);
  });

  it("GET /projects/:id of a private project in a subgroup, seen through the parent group's membership: still 1", async () => {
    const statements = await statementsOf(`/api/v4/projects/${t.projects.privateProject.id}`, t.tokens.alice);
    expect(statements).toHaveLength(1);
  });

  it("GET /projects/:id/events, a full page: 6 (token with its user, project, the viewer's level, page, total from the counters, authors) — the project is read once", async () => {
    const statements = await statementsOf(`/api/v4/projects/${t.projects.publicProject.id}/events?per_page=2`, t.tokens.bob);
    expect(statements.filter((s) => /^select (\*|"visibility") from "forgekit_projects"/.test(s))).toHaveLength(1);
    expect(statements).toHaveLength(6);
  });
});

describe("statements per authenticated read: GET /user (SQLite)", () => {
  it("GET /user: 2 (token with its user, the primary email)", async () => {
    const statements = await statementsOf("/api/v4/user", t.tokens.alice);
    expect(statements).toHaveLength(2);
  });
});

describe("statements of the activity day (SQLite)", () => {
  it("a user's first request of the day writes it in one conditional update, after the response; later requests write nothing", async () => {
    const user = (await t.fk.users.create({ username: "daily", name: "Daily", email: "daily@example.com" }))._unsafeUnwrap();
    const token = (await t.fk.tokens.createPersonal(user.id, { name: "t", scopes: ["api"] }))._unsafeUnwrap().plaintext;
    const get = () => t.fk.handle({ method: "GET", path: "/api/v4/user", rawQuery: "", headers: { "private-token": token } });
    const first = await recorded(async () => {
      expect((await get()).status).toBe(200);
      await activityRecorded(user.id);
    });
    expect(first.filter((sql) => sql.startsWith('update "forgekit_users"'))).toEqual([
      'update "forgekit_users" set "last_activity_on" = ? where "id" = ? and ("last_activity_on" is null or "last_activity_on" < ?)',
    ]);
    const later = await recorded(async () => {
      expect((await get()).status).toBe(200);
    });
    expect(later.filter((sql) => sql.startsWith("update"))).toEqual([]);
  });
});

describe("statements per token request: POST /oauth/token grant_type=refresh_token (SQLite)", () => {
  const redirect = "https://app.example/cb";
  const post = (form: Record<string, string>) =>
    t.fk.handle({ method: "POST", path: "/oauth/token", rawQuery: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new TextEncoder().encode(new URLSearchParams(form).toString()) });

  it("a refresh with rotation: 7 (client, refresh token, user; the rotation in one transaction: revoke the old, insert the new)", async () => {
    const app = (await t.fk.oauth.applications.create({ name: "Statements", redirectUris: [redirect], scopes: ["api"], trusted: true }))._unsafeUnwrap();
    const client = { client_id: app.application.uid, client_secret: app.clientSecret };
    const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: redirect, response_type: "code", scope: "api" }).toString();
    const authorized = await t.fk.handle({ method: "GET", path: "/oauth/authorize", rawQuery: query, headers: { cookie: "_service_session=signed-in" } });
    expect(authorized.status).toBe(302);
    const code = new URL(authorized.headers["Location"] ?? "").searchParams.get("code") ?? "";
    const first = await post({ grant_type: "authorization_code", code, redirect_uri: redirect, ...client });
    expect(first.status).toBe(200);
    let refresh = (JSON.parse(String(first.body)) as { refresh_token: string }).refresh_token;
    // A first refresh warms the statements; the second is counted.
    const warm = await post({ grant_type: "refresh_token", refresh_token: refresh, ...client });
    expect(warm.status).toBe(200);
    refresh = (JSON.parse(String(warm.body)) as { refresh_token: string }).refresh_token;
    const statements = await recorded(async () => {
      const r = await post({ grant_type: "refresh_token", refresh_token: refresh, ...client });
      expect(r.status).toBe(200);
    });
    expect(statements.map((sql) => sql.split(" ").slice(0, 3).join(" "))).toEqual([
      'select * from', // the application by client_id
      'select * from', // the token by its refresh digest
      'select * from', // its user
      "begin immediate",
      'update "forgekit_oauth_tokens" set', // the old token revoked, once (the race guard)
      'insert into "forgekit_oauth_tokens"', // the rotated token
      "commit",
    ]);
  });
});
