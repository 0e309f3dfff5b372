/**
 * Users' activity days (issue #19; reference `Users::ActivityService`): which requests record
 * `last_activity_on`, where the entities show it, and `GET /user/activities`. The day is written
 * after the response is built and not awaited, so tests wait for it in the store.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { User } from "../../accounts/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

type Json = Record<string, unknown>;

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

export const userActivitySuite: HttpSuite = (h) => {
  let count = 0;
  /** A new user (admin on request) with a personal token of `scopes`. */
  const freshUser = async (t: TestForgekit, options: { admin?: boolean; scopes?: string[] } = {}): Promise<{ user: User; token: string }> => {
    count += 1;
    const user = await t.createUser({ username: `active${count}`, admin: options.admin ?? false });
    const token = (await t.createToken(user.id, { scopes: options.scopes ?? ["api"] })).plaintext;
    return { user, token };
  };
  const dayOf = async (t: TestForgekit, userId: number) => (await t.store.users.findById(userId))?.lastActivityOn ?? null;
  /** Waits until the user's stored day is `day` (the write is not awaited by the request). */
  const recorded = (t: TestForgekit, userId: number, day: string) => vi.waitFor(async () => expect(await dayOf(t, userId)).toBe(day), { timeout: 30_000, interval: 10 });
  const as = (token: string) => ({ "private-token": token });

  describe("last_activity_on (recorded by requests)", () => {
    let t: TestForgekit;
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    it("an authenticated API request records the caller's UTC day; GET /user shows it from the next request on", async () => {
      const { user, token } = await freshUser(t);
      const first = await h.request("GET", "/api/v4/user", { headers: as(token) });
      expect(first.status).toBe(200);
      // Written after the response was built (the reference's after-hook): this one still shows none.
      expect((first.json as Json)["last_activity_on"]).toBeNull();
      await recorded(t, user.id, "2024-05-01");
      const again = await h.request("GET", "/api/v4/user", { headers: as(token) });
      expect((again.json as Json)["last_activity_on"]).toBe("2024-05-01");
    });

    it("administrators see a user's day on GET /users/:id; other users' view has no such field", async () => {
      const { user, token } = await freshUser(t);
      expect((await h.request("GET", "/api/v4/projects", { headers: as(token) })).status).toBe(200);
      await recorded(t, user.id, "2024-05-01");
      const admin = await h.request("GET", `/api/v4/users/${user.id}`, { headers: as(t.tokens.root) });
      expect(admin.json).toMatchObject({ id: user.id, last_activity_on: "2024-05-01", is_admin: false });
      const other = await h.request("GET", `/api/v4/users/${user.id}`, { headers: as(token) });
      expect(other.status).toBe(200);
      expect(other.json as Json).not.toHaveProperty("last_activity_on");
    });

    it("a request its route refuses (an error response) records nothing, like the reference's after-hook", async () => {
      const refused = await freshUser(t);
      expect((await h.request("GET", "/api/v4/projects/999999999", { headers: as(refused.token) })).status).toBe(404);
      expect((await h.request("POST", "/api/v4/users", { headers: as(refused.token), json: { username: "x", name: "x", email: "x@example.com", password: "password1" } })).status).toBe(403);
      // A request served afterwards is recorded; the refused ones, which came first, left nothing.
      const control = await freshUser(t);
      expect((await h.request("GET", "/api/v4/user", { headers: as(control.token) })).status).toBe(200);
      await recorded(t, control.user.id, "2024-05-01");
      expect(await dayOf(t, refused.user.id)).toBeNull();
    });

    it("with sudo the day is the user the request ran as, not the administrator's", async () => {
      const admin = await freshUser(t, { admin: true, scopes: ["api", "sudo"] });
      const target = await freshUser(t);
      const r = await h.request("GET", "/api/v4/user", { headers: { ...as(admin.token), sudo: target.user.username } });
      expect((r.json as Json)["username"]).toBe(target.user.username);
      await recorded(t, target.user.id, "2024-05-01");
      expect(await dayOf(t, admin.user.id)).toBeNull();
    });

    it("an impersonation token records the impersonated user's day (the reference records for the token's user)", async () => {
      const { user } = await freshUser(t);
      const impersonation = (await t.createToken(user.id, { kind: "impersonation" })).plaintext;
      expect((await h.request("GET", "/api/v4/user", { headers: as(impersonation) })).status).toBe(200);
      await recorded(t, user.id, "2024-05-01");
    });

    it("git over HTTP: a user let through to fetch records the day; one refused (unknown project) does not", async () => {
      const refused = await freshUser(t);
      const hidden = await h.request("GET", `/${t.projects.hidden.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic(refused.user.username, refused.token) } });
      expect(hidden.status).toBe(404);
      const reader = await freshUser(t);
      const r = await h.request("GET", `/${t.projects.publicProject.fullPath}.git/info/refs`, { query: { service: "git-upload-pack" }, headers: { authorization: basic(reader.user.username, reader.token) } });
      expect(r.status).toBe(200);
      await recorded(t, reader.user.id, "2024-05-01");
      expect(await dayOf(t, refused.user.id)).toBeNull();
    });

    it("the day is the instance clock's UTC day: the next day is written again", async () => {
      const { user, token } = await freshUser(t);
      try {
        t.clock.set("2024-05-01T23:59:00.000Z");
        await h.request("GET", "/api/v4/user", { headers: as(token) });
        await recorded(t, user.id, "2024-05-01");
        t.clock.set("2024-05-02T00:01:00.000Z");
        await h.request("GET", "/api/v4/user", { headers: as(token) });
        await recorded(t, user.id, "2024-05-02");
      } finally {
        t.clock.set("2024-05-01T12:00:00.000Z");
      }
    });
  });

  describe("GET /user/activities", () => {
    let t: TestForgekit;
    /** The administrator the tests list as: active today already, so listing records nothing new. */
    let auditor: { user: User; token: string };
    const days: Record<string, string> = {};
    const list = (query: Record<string, string> = {}, token = auditor.token) => h.request("GET", "/api/v4/user/activities", { headers: as(token), query });

    beforeAll(async () => {
      t = await createTestForgekit();
      auditor = await freshUser(t, { admin: true });
      // Six months before 2024-05-01 is 2023-11-01: `edge` is the first day the default counts.
      for (const [name, day] of [["old", "2023-10-31"], ["edge", "2023-11-01"], ["mid", "2024-02-10"]] as const) {
        const { user } = await freshUser(t);
        await t.store.users.recordActivity(user.id, day);
        days[name] = user.username;
      }
      await t.store.users.recordActivity(auditor.user.id, "2024-05-01");
      await h.serve(t.fk);
    });

    it("administrators get the users active since six months ago, oldest day first, as {username, last_activity_on, last_activity_at}", async () => {
      const r = await list();
      expect(r.status).toBe(200);
      expect(r.json).toEqual([
        { username: days["edge"], last_activity_on: "2023-11-01", last_activity_at: "2023-11-01" },
        { username: days["mid"], last_activity_on: "2024-02-10", last_activity_at: "2024-02-10" },
        { username: auditor.user.username, last_activity_on: "2024-05-01", last_activity_at: "2024-05-01" },
      ]);
      expect(r.headers["x-total"]).toBe("3");
    });

    it("`from` names the first day counted: a date, or a date-time by its UTC day", async () => {
      const usernames = async (from: string) => ((await list({ from })).json as Json[]).map((u) => u["username"]);
      expect(await usernames("2023-10-31")).toEqual([days["old"], days["edge"], days["mid"], auditor.user.username]);
      expect(await usernames("2024-02-10")).toEqual([days["mid"], auditor.user.username]);
      expect(await usernames("2024-02-10T23:30:00Z")).toEqual([days["mid"], auditor.user.username]);
      expect(await usernames("2024-02-11")).toEqual([auditor.user.username]);
    });

    it("pages with the pagination headers", async () => {
      const r = await list({ per_page: "1", page: "2" });
      expect((r.json as Json[]).map((u) => u["username"])).toEqual([days["mid"]]);
      expect(r.headers).toMatchObject({ "x-total": "3", "x-page": "2", "x-next-page": "3", "x-per-page": "1" });
      expect(r.headers["link"]).toContain(`${t.baseUrl}/api/v4/user/activities?`);
    });

    it("anonymous → 401, non-administrator → 403 Forbidden", async () => {
      const anonymous = await h.request("GET", "/api/v4/user/activities");
      expect(anonymous.status).toBe(401);
      const user = await list({}, t.tokens.alice);
      expect(user.status).toBe(403);
      expect(user.json).toEqual({ message: "403 Forbidden" });
    });

    it("an invalid `from` → 400 in the reference's wording", async () => {
      const r = await list({ from: "yesterday" });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: "from is invalid" });
    });
  });
};
