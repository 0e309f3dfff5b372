import { describe, expect, it } from "vitest";
import { AccessLevel } from "./types.js";
import { createTestForgekit } from "../testing/fixtures.js";

describe("users service: changes", () => {
  it("changePassword: hashes the new password; shorter than 8 → the reference message", async () => {
    const { fk, users } = await createTestForgekit();
    expect((await fk.users.changePassword(users.bob.id, "short"))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { password: ["is too short (minimum is 8 characters)"] },
    });
    (await fk.users.changePassword(users.bob.id, "a new password"))._unsafeUnwrap();
    expect((await fk.users.verifyPassword("bob", "a new password"))._unsafeUnwrap()?.id).toBe(users.bob.id);
    expect((await fk.users.verifyPassword("bob", "bob-password"))._unsafeUnwrap()).toBeNull();
    (await fk.users.clearPassword(users.bob.id))._unsafeUnwrap();
    expect((await fk.users.verifyPassword("bob", "a new password"))._unsafeUnwrap()).toBeNull();
  });

  it("changeEmail: a new address becomes the confirmed primary; the user's own secondary is promoted; another user's is taken", async () => {
    const { fk, users } = await createTestForgekit();
    (await fk.users.addEmail(users.bob.id, "second@example.com", { confirmed: false }))._unsafeUnwrap();
    const promoted = (await fk.users.changeEmail(users.bob.id, "second@example.com"))._unsafeUnwrap();
    expect(promoted).toMatchObject({ email: "second@example.com", primary: true, confirmedAt: new Date("2024-05-01T12:00:00.000Z") });
    expect((await fk.users.primaryEmail(users.bob.id))._unsafeUnwrap()).toBe("second@example.com");
    expect((await fk.users.changeEmail(users.bob.id, "ALICE@example.com"))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { email: ["has already been taken"] } });
  });

  it("confirmEmail: the host confirms an address the user added; a confirmed address is a login", async () => {
    const { fk, users } = await createTestForgekit();
    const added = (await fk.users.addEmail(users.bob.id, "later@example.com", { confirmed: false }))._unsafeUnwrap();
    expect((await fk.users.verifyPassword("later@example.com", "bob-password"))._unsafeUnwrap()).toBeNull();
    expect((await fk.users.confirmEmail(users.alice.id, added.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Email" });
    expect((await fk.users.confirmEmail(users.bob.id, added.id))._unsafeUnwrap().confirmedAt).toEqual(new Date("2024-05-01T12:00:00.000Z"));
    expect((await fk.users.verifyPassword("later@example.com", "bob-password"))._unsafeUnwrap()?.id).toBe(users.bob.id);
  });

  it("removeEmail: not the primary; not another user's", async () => {
    const { fk, users } = await createTestForgekit();
    const extra = (await fk.users.addEmail(users.bob.id, "extra@example.com"))._unsafeUnwrap();
    const [primary] = (await fk.users.emails(users.bob.id))._unsafeUnwrap();
    expect((await fk.users.removeEmail(users.bob.id, primary!.id))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { email: ["cannot remove the primary email address"] },
    });
    expect((await fk.users.removeEmail(users.alice.id, extra.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Email" });
    expect((await fk.users.removeEmail(users.bob.id, extra.id)).isOk()).toBe(true);
  });

  it("updateAccount: all changes or none — a taken e-mail leaves the new name and username unapplied", async () => {
    const { fk, users, store } = await createTestForgekit();
    const r = await fk.users.updateAccount(users.bob.id, { name: "Robert", username: "robert", email: "alice@example.com" });
    expect(r._unsafeUnwrapErr()).toEqual({ code: "conflict", reason: "Email has already been taken" });
    expect(await store.users.findById(users.bob.id)).toMatchObject({ name: "Bob Builder", username: "bob" });
    expect(await store.namespaces.findByFullPath("bob")).not.toBeNull();
    const renamed = (await fk.users.rename(users.bob.id, "robert"))._unsafeUnwrap();
    expect(renamed.username).toBe("robert");
    expect((await store.namespaces.findByFullPath("robert"))?.id).toBe(users.bob.namespaceId);
  });

  it("remove: refused while the user solely owns a group, then allowed once another Owner joins", async () => {
    const { fk, users, groups, store } = await createTestForgekit();
    const owner = (await fk.users.create({ username: "solo", name: "Solo", email: "solo@example.com" }))._unsafeUnwrap();
    const group = (await fk.groups.create({ name: "Solo group", path: "solo-group", visibility: "private", ownerId: owner.id }))._unsafeUnwrap();
    expect((await fk.users.remove(owner.id))._unsafeUnwrapErr()).toEqual({ code: "conflict", reason: "User cannot be removed while is the sole-owner of a group" });
    (await fk.members.add({ sourceType: "namespace", sourceId: group.id, userId: users.root.id, accessLevel: AccessLevel.Owner }))._unsafeUnwrap();
    expect((await fk.users.remove(owner.id)).isOk()).toBe(true);
    expect(await store.users.findById(owner.id)).toBeNull();
    expect(await store.namespaces.findById(groups.grp.id)).not.toBeNull();
    expect((await fk.users.remove(owner.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
  });
});

describe("tokens service: rotate", () => {
  it("revokes the old token and issues a successor with the same name, scopes and user, expiring a week later", async () => {
    const t = await createTestForgekit();
    const { fk, users } = t;
    const old = await t.createToken(users.bob.id, { name: "ci", scopes: ["read_api"] });
    const next = (await fk.tokens.rotate(old.token.id))._unsafeUnwrap();
    expect(next.token).toMatchObject({ kind: "personal", userId: users.bob.id, name: "ci", scopes: ["read_api"], revoked: false, expiresAt: new Date("2024-05-08T23:59:59.999Z") });
    expect(next.plaintext).not.toBe(old.plaintext);
    expect((await fk.tokens.findById(old.token.id))._unsafeUnwrap().revoked).toBe(true);
    expect((await fk.tokens.rotate(old.token.id))._unsafeUnwrapErr()).toEqual({ code: "bad_request", reason: "Token already revoked" });
  });

  it("rotating a token that was already rotated revokes its whole family (the successor leaked with it)", async () => {
    const t = await createTestForgekit();
    const old = await t.createToken(t.users.bob.id);
    const next = (await t.fk.tokens.rotate(old.token.id))._unsafeUnwrap();
    const third = (await t.fk.tokens.rotate(next.token.id))._unsafeUnwrap();
    expect((await t.fk.tokens.rotate(old.token.id))._unsafeUnwrapErr()).toEqual({ code: "bad_request", reason: "Token already revoked" });
    expect((await t.fk.tokens.findById(third.token.id))._unsafeUnwrap().revoked).toBe(true);
  });

  it("an invalid expiry rolls the whole rotation back: the old token stays active", async () => {
    const t = await createTestForgekit();
    const { fk, users } = t;
    const old = await t.createToken(users.bob.id);
    expect((await fk.tokens.rotate(old.token.id, { expiresAt: "2020-01-01" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { expires_at: ["must be in the future"] } });
    expect((await fk.tokens.findById(old.token.id))._unsafeUnwrap().revoked).toBe(false);
  });
});
