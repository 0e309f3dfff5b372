import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { tokenDigest } from "./token-string.js";
import { endOfUtcDay, parseExpiry, tokenActive } from "./tokens.js";
import { AccessLevel } from "./types.js";

describe("tokens service", () => {
  it("createPersonal: prefix + 27 url-safe characters; only the SHA-256 hex digest is stored", async () => {
    const { fk, store, users } = await createTestForgekit({ tokenPrefix: "xyz-" });
    const { token, plaintext } = (await fk.tokens.createPersonal(users.bob.id, { name: "ci", scopes: ["api", "api"], expiresAt: "2024-12-31" }))._unsafeUnwrap();
    expect(plaintext).toMatch(/^xyz-[A-Za-z0-9_-]{27}$/);
    expect(token.digest).toBe(tokenDigest(plaintext));
    expect(token.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(token).toMatchObject({ kind: "personal", userId: users.bob.id, scopes: ["api"], revoked: false });
    expect(token.expiresAt?.toISOString()).toBe("2024-12-31T23:59:59.999Z");
    expect((await store.accessTokens.findByDigest(tokenDigest(plaintext)))?.id).toBe(token.id);
  });

  it("createPersonal: validation of name, scopes and expiry; sudo only for administrators", async () => {
    const { fk, users } = await createTestForgekit();
    const bad = await fk.tokens.createPersonal(users.bob.id, { name: "", scopes: [], expiresAt: "2024-02-31" });
    expect(bad._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { name: ["can't be blank"], scopes: ["can't be blank"], expires_at: ["is invalid"] } });
    expect((await fk.tokens.createPersonal(users.bob.id, { name: "x", scopes: ["root"] }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { scopes: ["can only contain available scopes"] } });
    expect((await fk.tokens.createPersonal(users.bob.id, { name: "x", scopes: ["sudo"] }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { scopes: ["sudo can only be enabled for administrators"] } });
    expect((await fk.tokens.createPersonal(users.root.id, { name: "x", scopes: ["sudo"] })).isOk()).toBe(true);
    expect((await fk.tokens.createPersonal(users.bob.id, { name: "x", scopes: ["api"], expiresAt: "2024-04-30" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { expires_at: ["must be in the future"] } });
    expect((await fk.tokens.createPersonal(users.bob.id, { name: "x", scopes: ["api"], expiresAt: "2024-05-01" })).isOk()).toBe(true);
    expect((await fk.tokens.createPersonal(9999, { name: "x", scopes: ["api"] }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
  });

  it("createImpersonation: only an active administrator may create one", async () => {
    const { fk, users } = await createTestForgekit();
    expect((await fk.tokens.createImpersonation(users.alice, users.bob.id, { name: "x", scopes: ["api"] }))._unsafeUnwrapErr()).toEqual({ code: "forbidden" });
    const made = (await fk.tokens.createImpersonation(users.root, users.bob.id, { name: "x", scopes: ["api"] }))._unsafeUnwrap();
    expect(made.token).toMatchObject({ kind: "impersonation", userId: users.bob.id });
  });

  it("createProjectToken: bot user, membership and token in one transaction", async () => {
    const { fk, store, projects } = await createTestForgekit();
    const made = (await fk.tokens.createProjectToken(projects.publicProject.id, { name: "deployer", scopes: ["read_api"], accessLevel: AccessLevel.Developer }))._unsafeUnwrap();
    expect(made.bot.username).toMatch(new RegExp(`^project_${projects.publicProject.id}_bot_[0-9a-f]{32}$`));
    expect(made.bot).toMatchObject({ bot: "project_bot", name: "deployer", namespaceId: null });
    expect((await store.members.find("project", projects.publicProject.id, made.bot.id))?.accessLevel).toBe(30);
    expect(made.token).toMatchObject({ kind: "project", userId: made.bot.id, resourceId: projects.publicProject.id });
  });

  it("createGroupToken: defaults to Maintainer; a bad request leaves no bot behind", async () => {
    const { fk, store, groups } = await createTestForgekit();
    const made = (await fk.tokens.createGroupToken(groups.grp.id, { name: "bot", scopes: ["api"] }))._unsafeUnwrap();
    expect(made.bot.username).toMatch(new RegExp(`^group_${groups.grp.id}_bot_[0-9a-f]{32}$`));
    expect((await store.members.find("namespace", groups.grp.id, made.bot.id))?.accessLevel).toBe(40);
    const before = (await store.users.list({ includeBots: true }, { kind: "offset", page: 1, perPage: 100 })).total;
    expect((await fk.tokens.createGroupToken(groups.grp.id, { name: "bot", scopes: ["api"], accessLevel: 35 }))._unsafeUnwrapErr()).toMatchObject({ code: "validation" });
    expect((await fk.tokens.createGroupToken(groups.grp.id, { name: "bot", scopes: ["sudo"] }))._unsafeUnwrapErr()).toMatchObject({ code: "validation" });
    expect((await store.users.list({ includeBots: true }, { kind: "offset", page: 1, perPage: 100 })).total).toBe(before);
    expect((await fk.tokens.createGroupToken(9999, { name: "bot", scopes: ["api"] }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
  });

  it("revoke, findById and list", async () => {
    const { fk, users } = await createTestForgekit();
    const { token } = (await fk.tokens.createPersonal(users.bob.id, { name: "x", scopes: ["api"] }))._unsafeUnwrap();
    expect((await fk.tokens.revoke(token.id))._unsafeUnwrap().revoked).toBe(true);
    expect((await fk.tokens.revoke(token.id))._unsafeUnwrap().revoked).toBe(true);
    expect((await fk.tokens.revoke(9999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Token" });
    const active = (await fk.tokens.list({ userId: users.bob.id, state: "active" }))._unsafeUnwrap();
    expect(active.map((t) => t.id)).not.toContain(token.id);
    expect((await fk.tokens.findById(token.id))._unsafeUnwrap().revoked).toBe(true);
  });
});

describe("token expiry helpers", () => {
  it("a date is valid through the end of that UTC day", () => {
    const expiry = parseExpiry("2024-05-01");
    expect(expiry?.toISOString()).toBe("2024-05-01T23:59:59.999Z");
    expect(endOfUtcDay(new Date("2024-05-01T05:00:00Z")).toISOString()).toBe("2024-05-01T23:59:59.999Z");
    expect(parseExpiry(null)).toBeNull();
    expect(parseExpiry("2024-13-01")).toBeUndefined();
    const token = { revoked: false, expiresAt: expiry ?? null } as Parameters<typeof tokenActive>[0];
    expect(tokenActive(token, new Date("2024-05-01T23:59:59.998Z"))).toBe(true);
    expect(tokenActive(token, new Date("2024-05-02T00:00:00.000Z"))).toBe(false);
  });
});

describe("settings service", () => {
  it("impersonation_enabled: default on, false disables, removing re-enables", async () => {
    const { fk } = await createTestForgekit();
    expect((await fk.settings.impersonationEnabled())._unsafeUnwrap()).toBe(true);
    (await fk.settings.setImpersonationEnabled(false))._unsafeUnwrap();
    expect((await fk.settings.impersonationEnabled())._unsafeUnwrap()).toBe(false);
    expect(await fk.store.settings.get("impersonation_enabled")).toBe("false");
    (await fk.settings.setImpersonationEnabled(null))._unsafeUnwrap();
    expect((await fk.settings.impersonationEnabled())._unsafeUnwrap()).toBe(true);
  });

  it("the configured default applies while the setting is absent", async () => {
    const { fk } = await createTestForgekit({ impersonationEnabled: false });
    expect((await fk.settings.impersonationEnabled())._unsafeUnwrap()).toBe(false);
    (await fk.settings.setImpersonationEnabled(true))._unsafeUnwrap();
    expect((await fk.settings.impersonationEnabled())._unsafeUnwrap()).toBe(true);
  });
});
