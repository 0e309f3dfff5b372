/** Conformance: AccessTokenRepository and SettingsRepository. */
import { expect, it } from "vitest";
import type { NewAccessToken } from "../../ports/store.js";
import { T0, at, digest, ids, makeUser, type SuiteContext } from "./context.js";

export function accessTokenTests(ctx: SuiteContext): void {
  const token = (userId: number, extra: Partial<NewAccessToken> = {}): NewAccessToken => ({
    kind: "personal",
    userId,
    name: "token",
    scopes: ["api"],
    digest: digest(),
    expiresAt: null,
    ...extra,
  });

  it("accessTokens.create - returns the token, not revoked, never used, scopes in order", async () => {
    const user = await makeUser(ctx.store);
    const input = token(user.id, { name: "ci", scopes: ["read_api", "api", "read_user"], expiresAt: at(1440) });
    const created = await ctx.store.accessTokens.create(input, T0);
    expect(created).toEqual({ id: expect.any(Number), ...input, revoked: false, resourceId: null, lastUsedAt: null, createdAt: T0 });
    expect(await ctx.store.accessTokens.findById(created.id)).toEqual(created);
  });

  it("accessTokens.create - keeps the resource id of project and group tokens, and empty scope lists", async () => {
    const bot = await makeUser(ctx.store, { bot: "project_bot" });
    const created = await ctx.store.accessTokens.create(token(bot.id, { kind: "project", resourceId: 42, scopes: [] }), T0);
    expect(created).toMatchObject({ kind: "project", resourceId: 42, scopes: [] });
    expect(await ctx.store.accessTokens.findById(created.id)).toEqual(created);
  });

  it("accessTokens.findById / findByDigest - return the token, or null when unknown", async () => {
    const user = await makeUser(ctx.store);
    const created = await ctx.store.accessTokens.create(token(user.id), T0);
    expect(await ctx.store.accessTokens.findByDigest(created.digest)).toEqual(created);
    expect(await ctx.store.accessTokens.findByDigest(digest())).toBeNull();
    expect(await ctx.store.accessTokens.findById(created.id + 1000)).toBeNull();
  });

  it("accessTokens.findByDigestWithUser - the token with its user as they are now, or null when unknown", async () => {
    const user = await makeUser(ctx.store, { admin: true });
    const created = await ctx.store.accessTokens.create(token(user.id, { scopes: ["api", "sudo"], expiresAt: at(60) }), T0);
    expect(await ctx.store.accessTokens.findByDigestWithUser(created.digest)).toEqual({ token: created, user: await ctx.store.users.findById(user.id) });
    await ctx.store.accessTokens.revoke(created.id);
    const blocked = await ctx.store.users.update(user.id, { state: "blocked" });
    expect(await ctx.store.accessTokens.findByDigestWithUser(created.digest)).toEqual({ token: { ...created, revoked: true }, user: blocked });
    expect(await ctx.store.accessTokens.findByDigestWithUser(digest())).toBeNull();
  });

  it("accessTokens.list - filters by user, kind and resource, ordered by id", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    const t1 = await ctx.store.accessTokens.create(token(a.id), T0);
    const t2 = await ctx.store.accessTokens.create(token(b.id, { kind: "group", resourceId: 7 }), T0);
    const t3 = await ctx.store.accessTokens.create(token(a.id, { kind: "impersonation" }), T0);
    const t4 = await ctx.store.accessTokens.create(token(b.id, { kind: "group", resourceId: 8 }), T0);
    expect(ids(await ctx.store.accessTokens.list({}))).toEqual([t1.id, t2.id, t3.id, t4.id]);
    expect(ids(await ctx.store.accessTokens.list({ userId: a.id }))).toEqual([t1.id, t3.id]);
    expect(ids(await ctx.store.accessTokens.list({ kind: "group" }))).toEqual([t2.id, t4.id]);
    expect(ids(await ctx.store.accessTokens.list({ kind: "group", resourceId: 8 }))).toEqual([t4.id]);
    expect(ids(await ctx.store.accessTokens.list({ userId: a.id, kind: "group" }))).toEqual([]);
  });

  it("accessTokens.list - active means not revoked and not expired at now (expiry equal to now is inactive)", async () => {
    const user = await makeUser(ctx.store);
    const forever = await ctx.store.accessTokens.create(token(user.id), T0);
    const later = await ctx.store.accessTokens.create(token(user.id, { expiresAt: at(10) }), T0);
    const revoked = await ctx.store.accessTokens.create(token(user.id), T0);
    await ctx.store.accessTokens.revoke(revoked.id);
    expect(ids(await ctx.store.accessTokens.list({ state: "active", now: at(9) }))).toEqual([forever.id, later.id]);
    expect(ids(await ctx.store.accessTokens.list({ state: "inactive", now: at(9) }))).toEqual([revoked.id]);
    expect(ids(await ctx.store.accessTokens.list({ state: "active", now: at(10) }))).toEqual([forever.id]);
    expect(ids(await ctx.store.accessTokens.list({ state: "inactive", now: at(10), userId: user.id }))).toEqual([later.id, revoked.id]);
  });

  it("accessTokens.list - a state filter without now is rejected", async () => {
    await expect(ctx.store.accessTokens.list({ state: "active" })).rejects.toThrow();
  });

  it("accessTokens.revoke - true once, then false; false for an unknown id", async () => {
    const user = await makeUser(ctx.store);
    const created = await ctx.store.accessTokens.create(token(user.id), T0);
    expect(await ctx.store.accessTokens.revoke(created.id)).toBe(true);
    expect(await ctx.store.accessTokens.revoke(created.id)).toBe(false);
    expect(await ctx.store.accessTokens.revoke(created.id + 1000)).toBe(false);
    expect(await ctx.store.accessTokens.findById(created.id)).toEqual({ ...created, revoked: true });
  });

  it("accessTokens.touchLastUsed - records the time; an unknown id is a no-op", async () => {
    const user = await makeUser(ctx.store);
    const created = await ctx.store.accessTokens.create(token(user.id), T0);
    await ctx.store.accessTokens.touchLastUsed(created.id, at(3));
    expect((await ctx.store.accessTokens.findById(created.id))?.lastUsedAt).toEqual(at(3));
    await ctx.store.accessTokens.touchLastUsed(created.id, at(4));
    expect((await ctx.store.accessTokens.findById(created.id))?.lastUsedAt).toEqual(at(4));
    await expect(ctx.store.accessTokens.touchLastUsed(created.id + 1000, at(5))).resolves.toBeUndefined();
  });

  it("accessTokens - returned scope arrays are copies", async () => {
    const user = await makeUser(ctx.store);
    const created = await ctx.store.accessTokens.create(token(user.id, { scopes: ["api"] }), T0);
    created.scopes.push("sudo");
    expect((await ctx.store.accessTokens.findById(created.id))?.scopes).toEqual(["api"]);
  });

  it("settings.get / set - absent is null; set stores, overwrites, and null removes", async () => {
    expect(await ctx.store.settings.get("impersonation_enabled")).toBeNull();
    await ctx.store.settings.set("impersonation_enabled", "false");
    expect(await ctx.store.settings.get("impersonation_enabled")).toBe("false");
    await ctx.store.settings.set("impersonation_enabled", "true");
    expect(await ctx.store.settings.get("impersonation_enabled")).toBe("true");
    await ctx.store.settings.set("other", "");
    expect(await ctx.store.settings.get("other")).toBe("");
    await ctx.store.settings.set("impersonation_enabled", null);
    expect(await ctx.store.settings.get("impersonation_enabled")).toBeNull();
    await ctx.store.settings.set("never_set", null);
    expect(await ctx.store.settings.get("never_set")).toBeNull();
    expect(await ctx.store.settings.get("other")).toBe("");
  });

  it("accessTokens.revokeFamily - revokes every token rotated from the given one, not the token itself nor other families", async () => {
    const user = await makeUser(ctx.store);
    const root = await ctx.store.accessTokens.create(token(user.id), T0);
    const second = await ctx.store.accessTokens.create(token(user.id, { previousTokenId: root.id }), at(1));
    const third = await ctx.store.accessTokens.create(token(user.id, { previousTokenId: second.id }), at(2));
    const unrelated = await ctx.store.accessTokens.create(token(user.id), at(3));
    await ctx.store.accessTokens.revoke(second.id);
    expect(await ctx.store.accessTokens.revokeFamily(root.id)).toBe(1);
    expect((await ctx.store.accessTokens.findById(root.id))?.revoked).toBe(false);
    expect((await ctx.store.accessTokens.findById(third.id))?.revoked).toBe(true);
    expect((await ctx.store.accessTokens.findById(unrelated.id))?.revoked).toBe(false);
    expect(await ctx.store.accessTokens.revokeFamily(root.id)).toBe(0);
    expect(await ctx.store.accessTokens.revokeFamily(unrelated.id + 1000)).toBe(0);
  });
}
