import { describe, expect, it } from "vitest";
import { createTestForgekit, must } from "../testing/fixtures.js";
import { CUSTOM_EVENT_KEYS } from "./types.js";

const FREE_KEYS = CUSTOM_EVENT_KEYS.filter((key) => key !== "new_epic");

describe("notification settings service", () => {
  it("global defaults: participating, the primary e-mail, every key of the tier (pipelines on); reading writes nothing", async () => {
    const { fk, store, users } = await createTestForgekit();
    const settings = await must(fk.notificationSettings.get(users.alice, { type: "global" }));
    expect(settings.level).toBe("participating");
    expect(settings.notificationEmail).toBe("alice@example.com");
    expect(Object.keys(settings.events)).toEqual(FREE_KEYS);
    expect(Object.entries(settings.events).filter(([, on]) => on).map(([key]) => key)).toEqual(["failed_pipeline", "fixed_pipeline"]);
    expect(await store.notificationSettings.find(users.alice.id, { type: "global" })).toBeNull();
  });

  it("group and project defaults are `global`; reading writes nothing", async () => {
    const { fk, store, users, groups, projects } = await createTestForgekit();
    expect((await must(fk.notificationSettings.get(users.bob, { type: "group", id: "grp/sub" }))).level).toBe("global");
    expect((await must(fk.notificationSettings.get(users.bob, { type: "project", id: projects.publicProject.id }))).level).toBe("global");
    expect(await store.notificationSettings.listForUsers([users.bob.id], [{ type: "group", id: groups.sub.id }, { type: "project", id: projects.publicProject.id }])).toEqual([]);
  });

  it("notification e-mail: one of the user's confirmed addresses, matched case-insensitively and stored as spelled", async () => {
    const { fk, users } = await createTestForgekit();
    await must(fk.users.addEmail(users.alice.id, "Alice.Work@Example.com"));
    const updated = await must(fk.notificationSettings.update(users.alice, { type: "global" }, { level: "watch", notificationEmail: "alice.work@example.com" }));
    expect(updated).toMatchObject({ level: "watch", notificationEmail: "Alice.Work@Example.com" });
    expect((await must(fk.notificationSettings.get(users.alice, { type: "global" }))).notificationEmail).toBe("Alice.Work@Example.com");
    const reset = await must(fk.notificationSettings.update(users.alice, { type: "global" }, { notificationEmail: "" }));
    expect(reset).toMatchObject({ level: "watch", notificationEmail: "alice@example.com" });
  });

  it("notification e-mail: an unconfirmed or foreign address is a validation error and nothing of the change is kept", async () => {
    const { fk, users } = await createTestForgekit();
    await must(fk.users.addEmail(users.alice.id, "pending@example.com", { confirmed: false }));
    for (const address of ["pending@example.com", "bob@example.com", "nobody@example.com"]) {
      const refused = await fk.notificationSettings.update(users.alice, { type: "global" }, { level: "disabled", notificationEmail: address });
      expect(refused._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { notification_email: ["is not an email you own"] } });
    }
    expect((await must(fk.notificationSettings.get(users.alice, { type: "global" }))).level).toBe("participating");
  });

  it("custom events: keys merge across changes; values are booleans; unknown keys are ignored", async () => {
    const { fk, projects, users } = await createTestForgekit();
    const target = { type: "project", id: projects.publicProject.id } as const;
    await must(fk.notificationSettings.update(users.bob, target, { level: "custom", events: { new_note: true, moved_project: true } }));
    const second = await must(fk.notificationSettings.update(users.bob, target, { events: { new_issue: true, new_note: false } }));
    expect(second.level).toBe("custom");
    expect(second.events).toMatchObject({ new_note: false, new_issue: true, moved_project: true, close_issue: false });
    const unknown = { events: { new_release: true } } as unknown as Parameters<typeof fk.notificationSettings.update>[2];
    expect((await must(fk.notificationSettings.update(users.bob, target, unknown))).events).not.toHaveProperty("new_release");
  });

  it("invalid input: unknown level, non-boolean event value", async () => {
    const { fk, users } = await createTestForgekit();
    const bad = { level: "loud" } as unknown as Parameters<typeof fk.notificationSettings.update>[2];
    expect((await fk.notificationSettings.update(users.alice, { type: "global" }, bad))._unsafeUnwrapErr()).toEqual({ code: "bad_request_message", message: "'loud' is not a valid level" });
    const notBool = { events: { new_note: "yes" } } as unknown as Parameters<typeof fk.notificationSettings.update>[2];
    expect((await fk.notificationSettings.update(users.alice, { type: "global" }, notBool))._unsafeUnwrapErr()).toEqual({ code: "invalid_param", param: "new_note", reason: "is invalid" });
  });

  it("groups and projects the user cannot see, or that do not exist, are not found", async () => {
    const { fk, users, groups, projects } = await createTestForgekit();
    const cases = [
      [{ type: "group", id: groups.secret.id }, "Group"],
      [{ type: "group", id: "nope" }, "Group"],
      [{ type: "group", id: users.alice.namespaceId ?? -1 }, "Group"],
      [{ type: "project", id: projects.hidden.id }, "Project"],
      [{ type: "project", id: "alice/personal" }, "Project"],
      [{ type: "project", id: 99999 }, "Project"],
      [{ type: "project", id: "no-slash" }, "Project"],
    ] as const;
    for (const [target, thing] of cases) {
      expect((await fk.notificationSettings.get(users.bob, target))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing });
      expect((await fk.notificationSettings.update(users.bob, target, { level: "watch" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing });
    }
    // A private project is found by a member of its group, by path or id.
    expect((await must(fk.notificationSettings.get(users.bob, { type: "project", id: "grp/sub/private-project" }))).level).toBe("global");
    expect((await must(fk.notificationSettings.get(users.alice, { type: "project", id: String(projects.personal.id) }))).level).toBe("global");
  });

  it("the notification e-mail belongs to the global setting only", async () => {
    const { fk, users, groups } = await createTestForgekit();
    const group = await must(fk.notificationSettings.update(users.alice, { type: "group", id: groups.grp.id }, { level: "mention", notificationEmail: "elsewhere@example.com" }));
    expect(group).toEqual({ source: { type: "group", id: groups.grp.id }, level: "mention", events: expect.any(Object) });
  });

  it("new_epic: served and stored on the ultimate tier only", async () => {
    for (const [tier, served] of [["free", false], ["premium", false], ["ultimate", true]] as const) {
      const { fk, users, groups } = await createTestForgekit({ tier });
      const settings = await must(fk.notificationSettings.update(users.alice, { type: "group", id: groups.grp.id }, { level: "custom", events: { new_epic: true } }));
      expect([tier, "new_epic" in settings.events]).toEqual([tier, served]);
      if (served) expect(settings.events.new_epic).toBe(true);
      expect([tier, Object.keys(settings.events).length]).toEqual([tier, served ? CUSTOM_EVENT_KEYS.length : FREE_KEYS.length]);
    }
  });
});
