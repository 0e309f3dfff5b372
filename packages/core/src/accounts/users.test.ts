import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";

describe("users service", () => {
  it("create: makes the user, its personal namespace and confirmed e-mails in one go", async () => {
    const { fk, store } = await createTestForgekit();
    const user = (await fk.users.create({ username: "erin", name: "Erin", email: "erin@example.com", secondaryEmails: ["e2@example.com"], password: "long enough" }))._unsafeUnwrap();
    expect(user).toMatchObject({ username: "erin", state: "active", admin: false, bot: null, privateProfile: false });
    const namespace = await store.namespaces.findById(user.namespaceId ?? -1);
    expect(namespace).toMatchObject({ kind: "user", path: "erin", ownerId: user.id, fullPath: "erin" });
    const emails = (await fk.users.emails(user.id))._unsafeUnwrap();
    expect(emails.map((e) => [e.email, e.primary, e.confirmedAt?.toISOString()])).toEqual([
      ["erin@example.com", true, "2024-05-01T12:00:00.000Z"],
      ["e2@example.com", false, "2024-05-01T12:00:00.000Z"],
    ]);
    expect(user.passwordHash).not.toContain("long enough");
  });

  it("create: validation messages in the reference wording", async () => {
    const { fk } = await createTestForgekit();
    const r = await fk.users.create({ username: "-bad", name: "", email: "nope", password: "short" });
    expect(r._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: {
        username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"],
        name: ["can't be blank"],
        email: ["is invalid"],
        password: ["is too short (minimum is 8 characters)"],
      },
    });
  });

  it("create: a taken username (any case) → has already been taken", async () => {
    const { fk } = await createTestForgekit();
    expect((await fk.users.create({ username: "ALICE", name: "x", email: "x@example.com" }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { username: ["has already been taken"] },
    });
  });

  it("create: a username clashing with a group path leaves no partial rows", async () => {
    const { fk, store } = await createTestForgekit();
    const r = await fk.users.create({ username: "grp", name: "x", email: "grp@example.com" });
    expect(r._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { username: ["has already been taken"] } });
    expect(await store.users.findByUsername("grp")).toBeNull();
    expect(await store.emails.findByEmail("grp@example.com")).toBeNull();
  });

  it("create: a taken e-mail rolls the user back", async () => {
    const { fk, store } = await createTestForgekit();
    const r = await fk.users.create({ username: "copycat", name: "x", email: "alice@example.com" });
    expect(r._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { email: ["has already been taken"] } });
    expect(await store.users.findByUsername("copycat")).toBeNull();
    expect(await store.namespaces.findByFullPath("copycat")).toBeNull();
  });

  it("create: bots get no namespace and need no e-mail", async () => {
    const { fk } = await createTestForgekit();
    const bot = (await fk.users.create({ username: "some_bot", name: "Bot", bot: "project_bot" }))._unsafeUnwrap();
    expect(bot.namespaceId).toBeNull();
    expect(bot.bot).toBe("project_bot");
  });

  it("state transitions follow the reference rules", async () => {
    const { fk, users } = await createTestForgekit();
    const id = users.bob.id;
    expect((await fk.users.deactivate(id))._unsafeUnwrap().state).toBe("deactivated");
    expect((await fk.users.unblock(id))._unsafeUnwrapErr()).toEqual({ code: "forbidden", reason: "Deactivated users cannot be unblocked by the API" });
    expect((await fk.users.activate(id))._unsafeUnwrap().state).toBe("active");
    expect((await fk.users.block(id))._unsafeUnwrap().state).toBe("blocked");
    expect((await fk.users.activate(id))._unsafeUnwrapErr()).toEqual({ code: "forbidden", reason: "A blocked user must be unblocked to be activated" });
    expect((await fk.users.deactivate(id))._unsafeUnwrapErr()).toEqual({ code: "forbidden", reason: "A blocked user cannot be deactivated by the API" });
    expect((await fk.users.unblock(id))._unsafeUnwrap().state).toBe("active");
    expect((await fk.users.setAdmin(id, true))._unsafeUnwrap().admin).toBe(true);
    expect((await fk.users.block(9999))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
  });

  it("findByIdOrUsername: digits are ids, anything else a case-insensitive username", async () => {
    const { fk, users } = await createTestForgekit();
    expect((await fk.users.findByIdOrUsername(String(users.bob.id)))._unsafeUnwrap().username).toBe("bob");
    expect((await fk.users.findByIdOrUsername("BOB"))._unsafeUnwrap().id).toBe(users.bob.id);
    expect((await fk.users.findByIdOrUsername("ghost"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
  });

  it("verifyPassword: by username or confirmed e-mail; wrong pairs are null", async () => {
    const { fk, users } = await createTestForgekit();
    expect((await fk.users.verifyPassword("alice", "alice-password"))._unsafeUnwrap()?.id).toBe(users.alice.id);
    expect((await fk.users.verifyPassword("alice@example.com", "alice-password"))._unsafeUnwrap()?.id).toBe(users.alice.id);
    expect((await fk.users.verifyPassword("alice", "wrong"))._unsafeUnwrap()).toBeNull();
    expect((await fk.users.verifyPassword("nobody", "alice-password"))._unsafeUnwrap()).toBeNull();
  });

  it("addEmail and primaryEmail", async () => {
    const { fk, users } = await createTestForgekit();
    (await fk.users.addEmail(users.bob.id, "bob2@example.com", { primary: true }))._unsafeUnwrap();
    expect((await fk.users.primaryEmail(users.bob.id))._unsafeUnwrap()).toBe("bob2@example.com");
    expect((await fk.users.addEmail(users.bob.id, "alice@example.com"))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { email: ["has already been taken"] } });
  });
});
