/** Conformance: UserRepository. */
import { expect, it } from "vitest";
import { T0, at, ids, makeUser, type SuiteContext } from "./context.js";

const firstPage = { kind: "offset", page: 1, perPage: 100 } as const;

export function userTests(ctx: SuiteContext): void {
  it("users.create - returns the user with defaults for omitted fields", async () => {
    const user = await ctx.store.users.create({ username: "Alice", name: "Alice Liddell" }, T0);
    expect(user).toEqual({
      id: expect.any(Number),
      username: "Alice",
      name: "Alice Liddell",
      state: "active",
      admin: false,
      bot: null,
      twoFactorEnabled: false,
      privateProfile: false,
      avatarUrl: null,
      passwordHash: null,
      namespaceId: null,
      externalId: null,
      lastActivityOn: null,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it("users.findByExternalId - finds the user the host knows by that id (exact match), keeps it through updates", async () => {
    const user = await ctx.store.users.create({ username: "hosted", name: "Hosted", externalId: "host-42" }, T0);
    expect(user?.externalId).toBe("host-42");
    expect((await ctx.store.users.findByExternalId("host-42"))?.id).toBe(user?.id);
    expect(await ctx.store.users.findByExternalId("HOST-42")).toBeNull();
    expect(await ctx.store.users.findByExternalId("host-4")).toBeNull();
    await ctx.store.users.update(user?.id ?? 0, { name: "Renamed" });
    expect((await ctx.store.users.findByExternalId("host-42"))?.name).toBe("Renamed");
  });

  it("users.create / update - an external id is unique (create answers null; many users have none)", async () => {
    await ctx.store.users.create({ username: "one", name: "One", externalId: "x-1" }, T0);
    expect(await ctx.store.users.create({ username: "two", name: "Two", externalId: "x-1" }, T0)).toBeNull();
    const three = await ctx.store.users.create({ username: "three", name: "Three" }, T0);
    const four = await ctx.store.users.create({ username: "four", name: "Four" }, T0);
    expect(three?.externalId).toBeNull();
    expect(four?.externalId).toBeNull();
    expect(await ctx.store.users.update(three?.id ?? 0, { externalId: "x-1" })).toBeNull();
    expect((await ctx.store.users.update(three?.id ?? 0, { externalId: "x-3" }))?.externalId).toBe("x-3");
  });

  it("users.create - stores every given field", async () => {
    const input = {
      username: "bot1",
      name: "Bot",
      state: "blocked" as const,
      admin: true,
      bot: "project_bot" as const,
      twoFactorEnabled: true,
      privateProfile: true,
      avatarUrl: "https://example.com/a.png",
      passwordHash: "$scrypt$abc",
    };
    const user = await ctx.store.users.create(input, T0);
    expect(user).toMatchObject(input);
    expect(await ctx.store.users.findById(user!.id)).toEqual(user);
  });

  it("users.create - assigns distinct ids", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    expect(a.id).not.toBe(b.id);
  });

  it("users.create - returns null when the username is taken case-insensitively", async () => {
    await makeUser(ctx.store, { username: "Carol" });
    expect(await ctx.store.users.create({ username: "cAROL", name: "Other" }, T0)).toBeNull();
    expect(await ctx.store.users.create({ username: "Carol", name: "Other" }, T0)).toBeNull();
    const all = await ctx.store.users.list({}, firstPage);
    expect(all.items.map((u) => u.name)).toEqual(["Some One"]);
  });

  it("users.findById - returns the user, or null when unknown", async () => {
    const user = await makeUser(ctx.store);
    expect(await ctx.store.users.findById(user.id)).toEqual(user);
    expect(await ctx.store.users.findById(user.id + 1000)).toBeNull();
  });

  it("users.findByUsername - matches case-insensitively, null when unknown", async () => {
    const user = await makeUser(ctx.store, { username: "DaVe" });
    expect(await ctx.store.users.findByUsername("dave")).toEqual(user);
    expect(await ctx.store.users.findByUsername("DAVE")).toEqual(user);
    expect(await ctx.store.users.findByUsername("dav")).toBeNull();
  });

  it("users.findByIds - returns each existing user once and skips unknown ids", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    await makeUser(ctx.store);
    const found = await ctx.store.users.findByIds([b.id, a.id, b.id, b.id + 1000]);
    expect(found.map((u) => u.id).sort((x, y) => x - y)).toEqual([a.id, b.id]);
    expect(found.find((u) => u.id === a.id)).toEqual(a);
    expect(await ctx.store.users.findByIds([])).toEqual([]);
  });

  it("users.update - applies the patch and returns the updated row", async () => {
    const user = await makeUser(ctx.store);
    const updated = await ctx.store.users.update(user.id, { name: "Renamed", admin: true, state: "deactivated", avatarUrl: null, updatedAt: at(5) });
    expect(updated).toEqual({ ...user, name: "Renamed", admin: true, state: "deactivated", updatedAt: at(5) });
    expect(await ctx.store.users.findById(user.id)).toEqual(updated);
  });

  it("users.update - leaves fields the patch does not name untouched", async () => {
    const user = await makeUser(ctx.store, { passwordHash: "h1", twoFactorEnabled: true, bot: "group_bot" });
    const updated = await ctx.store.users.update(user.id, { privateProfile: true, namespaceId: 77 });
    expect(updated).toEqual({ ...user, privateProfile: true, namespaceId: 77 });
  });

  it("users.update - returns null for an unknown id", async () => {
    expect(await ctx.store.users.update(4242, { name: "x" })).toBeNull();
  });

  it("users.update - returns null when the new username is taken case-insensitively, leaving the row as it was", async () => {
    await makeUser(ctx.store, { username: "erin" });
    const frank = await makeUser(ctx.store, { username: "frank" });
    expect(await ctx.store.users.update(frank.id, { username: "ERIN", name: "Changed" })).toBeNull();
    expect(await ctx.store.users.findById(frank.id)).toEqual(frank);
  });

  it("users.update - may change the case of the user's own username, and frees the old one", async () => {
    const user = await makeUser(ctx.store, { username: "gina" });
    expect(await ctx.store.users.update(user.id, { username: "Gina" })).toMatchObject({ username: "Gina" });
    expect(await ctx.store.users.findByUsername("GINA")).toMatchObject({ id: user.id, username: "Gina" });
    await ctx.store.users.update(user.id, { username: "gina2" });
    expect(await ctx.store.users.findByUsername("gina")).toBeNull();
    expect(await ctx.store.users.create({ username: "gina", name: "New" }, T0)).not.toBeNull();
  });

  it("users.list - orders by id ascending by default and excludes bots unless includeBots", async () => {
    const a = await makeUser(ctx.store);
    const bot = await makeUser(ctx.store, { bot: "project_bot" });
    const b = await makeUser(ctx.store);
    expect(ids((await ctx.store.users.list({}, firstPage)).items)).toEqual([a.id, b.id]);
    expect(ids((await ctx.store.users.list({ includeBots: true }, firstPage)).items)).toEqual([a.id, bot.id, b.id]);
  });

  it("users.list - filters by state", async () => {
    await makeUser(ctx.store);
    const blocked = await makeUser(ctx.store, { state: "blocked" });
    const result = await ctx.store.users.list({ state: "blocked" }, firstPage);
    expect(result).toEqual({ items: [blocked], total: 1, hasNext: false });
  });

  it("users.list - search matches username, name or primary email case-insensitively as a substring", async () => {
    const byUsername = await makeUser(ctx.store, { username: "xSearchx" });
    const byName = await makeUser(ctx.store, { name: "Mr SEARCH" });
    const byEmail = await makeUser(ctx.store);
    const bySecondary = await makeUser(ctx.store);
    await makeUser(ctx.store, { name: "nobody" });
    await ctx.store.emails.add({ userId: byEmail.id, email: "the.Search@example.com", primary: true, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: bySecondary.id, email: "other@example.com", primary: true, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: bySecondary.id, email: "search2@example.com", primary: false, confirmedAt: null }, T0);
    const result = await ctx.store.users.list({ search: "sEaRcH" }, firstPage);
    expect(ids(result.items)).toEqual([byUsername.id, byName.id, byEmail.id]);
    expect(result.total).toBe(3);
  });

  it("users.list - search treats % and _ as literal characters", async () => {
    const percent = await makeUser(ctx.store, { name: "100% done" });
    await makeUser(ctx.store, { name: "100 percent" });
    const underscore = await makeUser(ctx.store, { username: "a_b" });
    await makeUser(ctx.store, { username: "axb" });
    expect(ids((await ctx.store.users.list({ search: "0%" }, firstPage)).items)).toEqual([percent.id]);
    expect(ids((await ctx.store.users.list({ search: "a_b" }, firstPage)).items)).toEqual([underscore.id]);
    expect((await ctx.store.users.list({ search: "%" }, firstPage)).total).toBe(1);
  });

  it("users.list - pages with total and hasNext", async () => {
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await makeUser(ctx.store));
    const page1 = await ctx.store.users.list({}, { kind: "offset", page: 1, perPage: 2 });
    const page3 = await ctx.store.users.list({}, { kind: "offset", page: 3, perPage: 2 });
    expect(page1).toEqual({ items: users.slice(0, 2), total: 5, hasNext: true });
    expect(page3).toEqual({ items: users.slice(4), total: 5, hasNext: false });
  });

  it("users - returned dates are copies: mutating them or the input changes nothing stored", async () => {
    const now = new Date(T0);
    const user = await makeUser(ctx.store, {}, now);
    now.setUTCFullYear(2000);
    user.createdAt.setUTCFullYear(1999);
    const again = await ctx.store.users.findById(user.id);
    expect(again?.createdAt).toEqual(T0);
    expect(again?.updatedAt).toEqual(T0);
  });
}
