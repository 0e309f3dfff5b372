/** `GET`/`PUT /notification_settings`: the user's global setting (spec "Notification settings"; reference §1). */
import { beforeAll, describe, expect, it } from "vitest";
import { CUSTOM_EVENT_KEYS } from "../../notifications/types.js";
import { createTestForgekit, must, type TestForgekit } from "../fixtures.js";
import type { HttpSuite } from "../http-harness.js";

const PATH = "/api/v4/notification_settings";

/** `events` as a free or premium instance shows a custom setting: every spec key but `new_epic`, pipelines on. */
export function customEvents(set: Record<string, boolean> = {}, keys: readonly string[] = CUSTOM_EVENT_KEYS.filter((k) => k !== "new_epic")): Record<string, boolean> {
  return Object.fromEntries(keys.map((key) => [key, set[key] ?? (key === "failed_pipeline" || key === "fixed_pipeline")]));
}

/** The global notification settings endpoints. */
export const notificationSettingsGlobalSuite: HttpSuite = (h) => {
  let t: TestForgekit;
  let users = 0;
  const as = (token: string) => ({ "private-token": token });
  /**
   * A user of the calling test's own, with no setting yet: primary address `<username>@example.com`,
   * the confirmed secondary `<username>.work@example.com` and the unconfirmed `<username>.pending@example.com`.
   */
  const newUser = async () => {
    users += 1;
    const username = `carol${users}`;
    const user = await t.createUser({ username, secondaryEmails: [`${username}.work@example.com`] });
    await must(t.fk.users.addEmail(user.id, `${username}.pending@example.com`, { confirmed: false }));
    return { id: user.id, username, token: (await t.createToken(user.id)).plaintext };
  };

  describe("global notification settings", () => {
    beforeAll(async () => {
      t = await createTestForgekit();
      await h.serve(t.fk);
    });

    describe("GET /notification_settings", () => {
      it("default: level participating and the primary e-mail", async () => {
        const r = await h.request("GET", PATH, { headers: as(t.tokens.alice) });
        expect(r.status).toBe(200);
        expect(r.headers["content-type"]).toBe("application/json");
        expect(r.json).toEqual({ level: "participating", notification_email: "alice@example.com" });
      });
      it("a GET does not create a setting", async () => {
        const user = await newUser();
        await h.request("GET", PATH, { headers: as(user.token) });
        expect(await t.store.notificationSettings.find(user.id, { type: "global" })).toBeNull();
      });
      it("anonymous → 401", async () => {
        const r = await h.request("GET", PATH);
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ message: "401 Unauthorized" });
      });
      it("scope read_api may read", async () => {
        const { plaintext } = await t.createToken(t.users.bob.id, { scopes: ["read_api"] });
        expect((await h.request("GET", PATH, { headers: as(plaintext) })).status).toBe(200);
      });
    });

    describe("PUT /notification_settings", () => {
      it("level and a confirmed secondary address are stored and returned", async () => {
        const carol = await newUser();
        const work = `${carol.username}.work@example.com`;
        const r = await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "watch", notification_email: work } });
        expect(r.status).toBe(200);
        expect(r.json).toEqual({ level: "watch", notification_email: work });
        expect((await h.request("GET", PATH, { headers: as(carol.token) })).json).toEqual({ level: "watch", notification_email: work });
      });
      it("level custom (form body, python-style booleans) shows every event key of the spec's list but new_epic", async () => {
        const carol = await newUser();
        const work = `${carol.username}.work@example.com`;
        expect((await h.request("PUT", PATH, { headers: as(carol.token), json: { notification_email: work } })).status).toBe(200);
        const form = await h.request("PUT", PATH, {
          headers: { ...as(carol.token), "content-type": "application/x-www-form-urlencoded" },
          body: "level=custom&new_note=true&success_pipeline=True",
        });
        expect(form.status).toBe(200);
        expect(form.json).toEqual({ level: "custom", events: customEvents({ new_note: true, success_pipeline: true }), notification_email: work });
      });
      it("notification_email not among the user's confirmed addresses → 400 validation body; nothing changes", async () => {
        const carol = await newUser();
        expect((await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "custom", notification_email: `${carol.username}.work@example.com` } })).status).toBe(200);
        const before = (await h.request("GET", PATH, { headers: as(carol.token) })).json;
        for (const address of [`${carol.username}.pending@example.com`, "alice@example.com", "nobody@example.com"]) {
          const r = await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "disabled", notification_email: address } });
          expect(r.status).toBe(400);
          expect(r.json).toEqual({ message: { notification_email: ["is not an email you own"] } });
        }
        const after = (await h.request("GET", PATH, { headers: as(carol.token) })).json;
        expect((after as Record<string, unknown>)["level"]).toBe("custom");
        expect(after).toEqual(before);
      });
      it("an empty notification_email goes back to the primary address", async () => {
        const carol = await newUser();
        expect((await h.request("PUT", PATH, { headers: as(carol.token), json: { notification_email: `${carol.username}.work@example.com` } })).status).toBe(200);
        const r = await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "participating", notification_email: "" } });
        expect(r.json).toEqual({ level: "participating", notification_email: `${carol.username}@example.com` });
      });
      it("invalid level → 400", async () => {
        const carol = await newUser();
        const r = await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "loud" } });
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ message: "'loud' is not a valid level" });
      });
      it("non-boolean event value → 400", async () => {
        const carol = await newUser();
        const r = await h.request("PUT", PATH, { headers: as(carol.token), json: { new_note: "sometimes" } });
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ error: "new_note is invalid" });
        const nulled = await h.request("PUT", PATH, { headers: as(carol.token), json: { close_issue: null } });
        expect(nulled.json).toEqual({ error: "close_issue is invalid" });
      });
      it("unknown parameters, and new_epic below ultimate, are ignored", async () => {
        const carol = await newUser();
        expect((await h.request("PUT", PATH, { headers: as(carol.token), json: { level: "custom", new_note: true, success_pipeline: true } })).status).toBe(200);
        const r = await h.request("PUT", PATH, { headers: as(carol.token), query: { new_release: "true", new_epic: "true" }, json: { level: "custom" } });
        expect(r.status).toBe(200);
        expect((r.json as Record<string, unknown>)["events"]).toEqual(customEvents({ new_note: true, success_pipeline: true }));
      });
      it("anonymous → 401", async () => {
        const r = await h.request("PUT", PATH, { json: { level: "watch" } });
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ message: "401 Unauthorized" });
      });
      it("scope read_api may not write → 403 insufficient_scope", async () => {
        const { plaintext } = await t.createToken(t.users.bob.id, { scopes: ["read_api"] });
        const r = await h.request("PUT", PATH, { headers: as(plaintext), json: { level: "watch" } });
        expect(r.status).toBe(403);
        expect((r.json as Record<string, unknown>)["error"]).toBe("insufficient_scope");
      });
    });
  });
};
