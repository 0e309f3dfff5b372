/** Conformance: NotificationSettingRepository. */
import { expect, it } from "vitest";
import type { NotificationSource } from "../../notifications/types.js";
import { T0, at, ids, makeUser, type SuiteContext } from "./context.js";

const GLOBAL: NotificationSource = { type: "global" };

export function notificationSettingTests(ctx: SuiteContext): void {
  const settings = () => ctx.store.notificationSettings;

  it("notificationSettings.find - null when the user never changed the setting", async () => {
    const user = await makeUser(ctx.store);
    expect(await settings().find(user.id, GLOBAL)).toBeNull();
    expect(await settings().find(user.id, { type: "project", id: 1 })).toBeNull();
  });

  it("notificationSettings.change - creates the row at the initial level unless the change names one", async () => {
    const user = await makeUser(ctx.store);
    const created = await settings().change(user.id, GLOBAL, { events: { new_note: true } }, "participating", T0);
    expect(created).toEqual({
      id: expect.any(Number),
      userId: user.id,
      source: GLOBAL,
      level: "participating",
      notificationEmail: null,
      events: { new_note: true },
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await settings().find(user.id, GLOBAL)).toEqual(created);
    const named = await settings().change(user.id, { type: "group", id: 3 }, { level: "watch" }, "global", T0);
    expect(named).toMatchObject({ source: { type: "group", id: 3 }, level: "watch", events: {} });
  });

  it("notificationSettings.change - merges events, keeps fields not named, null clears the e-mail", async () => {
    const user = await makeUser(ctx.store);
    const source: NotificationSource = { type: "project", id: 9 };
    const first = await settings().change(user.id, source, { level: "custom", notificationEmail: "a@example.com", events: { new_note: true, new_issue: true } }, "global", T0);
    const second = await settings().change(user.id, source, { events: { new_issue: false, close_issue: true } }, "global", at(5));
    expect(second).toEqual({ ...first, events: { new_note: true, new_issue: false, close_issue: true }, updatedAt: at(5) });
    const third = await settings().change(user.id, source, { level: "watch", notificationEmail: null }, "global", at(6));
    expect(third).toMatchObject({ id: first.id, level: "watch", notificationEmail: null, events: second.events, createdAt: T0, updatedAt: at(6) });
    expect(await settings().find(user.id, source)).toEqual(third);
  });

  it("notificationSettings.change - rows are per user and source (a group and a project with the same id differ)", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    await settings().change(a.id, { type: "group", id: 5 }, { level: "watch" }, "global", T0);
    await settings().change(a.id, { type: "project", id: 5 }, { level: "disabled" }, "global", T0);
    await settings().change(b.id, { type: "group", id: 5 }, { level: "mention" }, "global", T0);
    expect((await settings().find(a.id, { type: "group", id: 5 }))?.level).toBe("watch");
    expect((await settings().find(a.id, { type: "project", id: 5 }))?.level).toBe("disabled");
    expect((await settings().find(b.id, { type: "group", id: 5 }))?.level).toBe("mention");
    expect(await settings().find(b.id, { type: "project", id: 5 })).toBeNull();
    expect(await settings().find(a.id, GLOBAL)).toBeNull();
  });

  it("notificationSettings.listBySources - every user's rows on those sources, by id", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    const r1 = await settings().change(b.id, { type: "project", id: 7 }, { level: "watch" }, "global", T0);
    await settings().change(a.id, { type: "project", id: 8 }, { level: "watch" }, "global", T0);
    const r3 = await settings().change(a.id, { type: "group", id: 7 }, { level: "custom" }, "global", T0);
    await settings().change(a.id, GLOBAL, { level: "watch" }, "participating", T0);
    expect(ids(await settings().listBySources([{ type: "project", id: 7 }, { type: "group", id: 7 }]))).toEqual([r1.id, r3.id]);
    expect(await settings().listBySources([])).toEqual([]);
  });

  it("notificationSettings.listForUsers - only the named users' rows on those sources, by id", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    const c = await makeUser(ctx.store);
    const ra = await settings().change(a.id, GLOBAL, { level: "watch" }, "participating", T0);
    const rb = await settings().change(b.id, { type: "project", id: 4 }, { level: "disabled" }, "global", T0);
    await settings().change(b.id, { type: "project", id: 5 }, { level: "disabled" }, "global", T0);
    await settings().change(c.id, GLOBAL, { level: "watch" }, "participating", T0);
    const rows = await settings().listForUsers([a.id, b.id], [GLOBAL, { type: "project", id: 4 }]);
    expect(ids(rows)).toEqual([ra.id, rb.id]);
    expect(await settings().listForUsers([], [GLOBAL])).toEqual([]);
  });

  if (ctx.options.concurrency !== false) {
    it("notificationSettings.change - racing first changes create one row and every change applies", async () => {
      const user = await makeUser(ctx.store);
      const keys = ["new_note", "new_issue", "close_issue", "reopen_issue", "issue_due", "moved_project"];
      await Promise.all(keys.map((key) => settings().change(user.id, GLOBAL, { events: { [key]: true } }, "participating", T0)));
      const rows = await settings().listForUsers([user.id], [GLOBAL]);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.events).toEqual(Object.fromEntries(keys.map((key) => [key, true])));
    });
  }
}
