/**
 * `GET`/`PUT /groups/:id/notification_settings` and `/projects/:id/notification_settings` (spec
 * "Notification settings"; reference §1; client-compatibility §6.15 for python-gitlab's `?id=`).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { CUSTOM_EVENT_KEYS } from "../../notifications/types.js";
import { createTestForgekit, type TestForgekit } from "../fixtures.js";
import type { HttpHarness, HttpSuite } from "../http-harness.js";
import { customEvents } from "./notifications-global.js";

type Kind = "group" | "project";

/** The cases both sources share, for `/<kind>s/:id/notification_settings`. */
function sourceCases(h: HttpHarness, kind: Kind, world: () => TestForgekit) {
  let callers = 0;
  const thing = kind === "group" ? "Group" : "Project";
  const path = (id: string) => `/api/v4/${kind}s/${id}/notification_settings`;
  const as = (token: string) => ({ "private-token": token });
  // Visible to bob: `grp/sub` (member) and `grp/sub/private-project` (member of its group).
  const mine = () => (kind === "group" ? "grp%2Fsub" : "grp%2Fsub%2Fprivate-project");
  /**
   * A caller of the test's own, placed as bob is (Developer of `grp/sub`): notification settings
   * are per user, so a setting another test stores never shows in this one's answers.
   */
  const caller = async (t: TestForgekit) => {
    const user = await t.createUser({ username: `notified-${kind}-${++callers}` });
    await t.addMember({ group: t.groups.sub }, user, AccessLevel.Developer);
    return { user, token: (await t.createToken(user.id)).plaintext };
  };
  const hidden = () => (kind === "group" ? "secret" : "secret%2Fhidden");

  describe(`GET /${kind}s/:id/notification_settings`, () => {
    it("default: level global; a GET does not create a setting", async () => {
      const t = world();
      const me = await caller(t);
      const r = await h.request("GET", path(mine()), { headers: as(me.token) });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ level: "global" });
      expect(await t.store.notificationSettings.listForUsers([me.user.id], [{ type: kind, id: kind === "group" ? t.groups.sub.id : t.projects.privateProject.id }])).toEqual([]);
    });
    it("by numeric id too", async () => {
      const t = world();
      const me = await caller(t);
      const id = kind === "group" ? t.groups.grp.id : t.projects.publicProject.id;
      expect((await h.request("GET", path(String(id)), { headers: as(me.token) })).json).toEqual({ level: "global" });
    });
    it(`unknown or invisible ${kind} → 404 ${thing} Not Found (never 403)`, async () => {
      const t = world();
      for (const id of [hidden(), "99999", "nope%2Fnothing"]) {
        const r = await h.request("GET", path(id), { headers: as(t.tokens.bob) });
        expect([id, r.status]).toEqual([id, 404]);
        expect(r.json).toEqual({ message: `404 ${thing} Not Found` });
      }
    });
    it("anonymous → 401", async () => {
      const r = await h.request("GET", path(kind === "group" ? "grp" : "grp%2Fpublic-project"));
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ message: "401 Unauthorized" });
    });
    it("unknown query parameters are ignored and the path id wins (python-gitlab's ?id=<built-in function id>)", async () => {
      const t = world();
      const me = await caller(t);
      const r = await h.request("GET", path(mine()), { headers: as(me.token), query: "id=%3Cbuilt-in%20function%20id%3E&pagination=offset" });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ level: "global" });
    });
  });

  describe(`PUT /${kind}s/:id/notification_settings`, () => {
    it("level only: {level}", async () => {
      const me = await caller(world());
      const r = await h.request("PUT", path(mine()), { headers: as(me.token), json: { level: "watch" } });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ level: "watch" });
      expect((await h.request("GET", path(mine()), { headers: as(me.token) })).json).toEqual({ level: "watch" });
    });
    it("level custom: events with the keys set, others at their defaults", async () => {
      const me = await caller(world());
      const r = await h.request("PUT", path(mine()), { headers: as(me.token), json: { level: "custom", new_note: true, moved_project: true } });
      expect(r.json).toEqual({ level: "custom", events: customEvents({ new_note: true, moved_project: true }) });
    });
    it("event keys in the query of a PUT count too, path id still wins", async () => {
      const me = await caller(world());
      // A custom setting of the caller's own first: the query's keys add to it.
      const custom = await h.request("PUT", path(mine()), { headers: as(me.token), json: { level: "custom", new_note: true, moved_project: true } });
      expect(custom.json).toEqual({ level: "custom", events: customEvents({ new_note: true, moved_project: true }) });
      const r = await h.request("PUT", path(mine()), { headers: as(me.token), query: { id: "1", new_issue: "true", close_issue: "1" }, json: {} });
      expect(r.json).toEqual({ level: "custom", events: customEvents({ new_note: true, moved_project: true, new_issue: true, close_issue: true }) });
    });
    it("invalid level → 400; non-boolean event value → 400", async () => {
      const me = await caller(world());
      const level = await h.request("PUT", path(mine()), { headers: as(me.token), json: { level: "everything" } });
      expect([level.status, level.json]).toEqual([400, { message: "'everything' is not a valid level" }]);
      const event = await h.request("PUT", path(mine()), { headers: as(me.token), json: { new_issue: "maybe" } });
      expect([event.status, event.json]).toEqual([400, { error: "new_issue is invalid" }]);
    });
    it("notification_email is not part of this setting and is ignored", async () => {
      const me = await caller(world());
      const r = await h.request("PUT", path(mine()), { headers: as(me.token), json: { level: "mention", notification_email: "nobody@example.com" } });
      expect([r.status, r.json]).toEqual([200, { level: "mention" }]);
    });
    it(`unknown or invisible ${kind} → 404 ${thing} Not Found; nothing is stored`, async () => {
      const t = world();
      const r = await h.request("PUT", path(hidden()), { headers: as(t.tokens.bob), json: { level: "watch" } });
      expect([r.status, r.json]).toEqual([404, { message: `404 ${thing} Not Found` }]);
      expect((await t.store.notificationSettings.listForUsers([t.users.bob.id], [{ type: kind, id: kind === "group" ? t.groups.secret.id : t.projects.hidden.id }])).length).toBe(0);
    });
    it("anonymous → 401", async () => {
      const r = await h.request("PUT", path("grp"), { json: { level: "watch" } });
      expect(r.status).toBe(401);
    });
  });
}

/** The group and project notification settings endpoints. */
export const notificationSettingsSourcesSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  describe("notification settings of groups and projects", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });
    sourceCases(h, "group", () => t);
    sourceCases(h, "project", () => t);
  });
};

/** `new_epic` exists on the ultimate tier only (access/tier.ts). */
export const notificationSettingsTierSuite: HttpSuite = (h) => {
  describe("PUT /groups/:id/notification_settings — new_epic (ultimate tier)", () => {
    it("ultimate: new_epic is accepted and listed", async () => {
      const t = await createTestForgekit({ tier: "ultimate" });
      await h.serve(t.fk);
      const r = await h.request("PUT", "/api/v4/groups/grp/notification_settings", { headers: { "private-token": t.tokens.alice }, json: { level: "custom", new_epic: true } });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ level: "custom", events: customEvents({ new_epic: true }, CUSTOM_EVENT_KEYS) });
      const invalid = await h.request("PUT", "/api/v4/groups/grp/notification_settings", { headers: { "private-token": t.tokens.alice }, json: { new_epic: "x" } });
      expect([invalid.status, invalid.json]).toEqual([400, { error: "new_epic is invalid" }]);
    });
    it("free and premium: new_epic is ignored and not listed", async () => {
      for (const tier of ["free", "premium"] as const) {
        const t = await createTestForgekit({ tier });
        await h.serve(t.fk);
        const r = await h.request("PUT", "/api/v4/groups/grp/notification_settings", { headers: { "private-token": t.tokens.alice }, json: { level: "custom", new_epic: "x" } });
        expect([tier, r.status, r.json]).toEqual([tier, 200, { level: "custom", events: customEvents() }]);
      }
    });
  });
};
