/**
 * The memory store's transactions (an undo log, journal.ts): a rejected transaction restores every
 * kind of change — inserts, updates, deletes, unique keys, sequences, lazily added tables — its
 * reads see its own writes, and entities handed out never alias stored rows.
 */
import { describe, expect, it } from "vitest";
import type { NewOAuthToken } from "../ports/oauth-store.js";
import type { Store } from "../ports/store.js";
import { memoryStore } from "./index.js";

const NOW = new Date("2026-01-01T00:00:00Z");

function tokenInput(n: number): NewOAuthToken {
  return {
    familyId: `family-${n}`,
    applicationId: null,
    userId: 1,
    accessDigest: `access-${n}`,
    refreshDigest: `refresh-${n}`,
    scopes: ["api"],
    expiresIn: 7200,
    refreshExpiresAt: null,
    familyCreatedAt: NOW,
  };
}

/** A store with user 1 (`alice`, primary e-mail, one personal access token, one OAuth pair, one setting). */
async function seeded(): Promise<Store> {
  const store = memoryStore();
  const alice = await store.users.create({ username: "alice", name: "Alice" }, NOW);
  expect(alice?.id).toBe(1);
  await store.emails.add({ userId: 1, email: "alice@example.com", primary: true, confirmedAt: null }, NOW);
  await store.settings.set("signup_enabled", "true");
  await store.oauth.oauthTokens.create(tokenInput(1), NOW);
  return store;
}

/** Everything the tests look at, as plain data. */
async function snapshot(store: Store): Promise<unknown> {
  return {
    users: await store.users.list({}, { kind: "offset", page: 1, perPage: 100 }),
    emails: await store.emails.listByUser(1),
    alice: await store.users.findByUsername("alice"),
    setting: await store.settings.get("signup_enabled"),
    pair: await store.oauth.oauthTokens.findByRefreshDigest("refresh-1"),
    family: await store.oauth.oauthTokens.listByFamily("family-1"),
  };
}

const rejected = new Error("roll back");

describe("memoryStore().transaction - a rejection restores every kind of change", () => {
  it("inserts are undone, with their unique keys and the sequences they advanced", async () => {
    const store = await seeded();
    const before = await snapshot(store);
    await expect(
      store.transaction(async (tx) => {
        await tx.users.create({ username: "bob", name: "Bob" }, NOW);
        await tx.emails.add({ userId: 1, email: "second@example.com", primary: false, confirmedAt: null }, NOW);
        await tx.oauth.oauthTokens.create(tokenInput(2), NOW);
        throw rejected;
      }),
    ).rejects.toBe(rejected);
    expect(await snapshot(store)).toEqual(before);
    expect(await store.users.findByUsername("bob")).toBeNull();
    expect(await store.oauth.oauthTokens.findByAccessDigest("access-2")).toBeNull();
    // The sequences went back: the next rows take the ids the rolled-back ones had.
    expect((await store.users.create({ username: "bob", name: "Bob" }, NOW))?.id).toBe(2);
    expect((await store.oauth.oauthTokens.create(tokenInput(2), NOW)).id).toBe(2);
  });

  it("updates are undone: the old row and its unique keys come back", async () => {
    const store = await seeded();
    const before = await snapshot(store);
    await expect(
      store.transaction(async (tx) => {
        await tx.users.update(1, { username: "alicia", name: "Alicia", admin: true });
        await tx.emails.add({ userId: 1, email: "new-primary@example.com", primary: true, confirmedAt: null }, NOW); // demotes the old primary
        await tx.settings.set("signup_enabled", "false");
        throw rejected;
      }),
    ).rejects.toBe(rejected);
    expect(await snapshot(store)).toEqual(before);
    expect(await store.users.findByUsername("alicia")).toBeNull();
    expect((await store.emails.primaryFor(1))?.email).toBe("alice@example.com");
  });

  it("deletes are undone: the rows are back and findable by their unique keys", async () => {
    const store = await seeded();
    const email = await store.emails.findByEmail("alice@example.com");
    const before = await snapshot(store);
    await expect(
      store.transaction(async (tx) => {
        expect(await tx.emails.remove(email!.id)).toBe(true);
        await tx.settings.set("signup_enabled", null);
        throw rejected;
      }),
    ).rejects.toBe(rejected);
    expect(await snapshot(store)).toEqual(before);
    expect((await store.emails.findByEmail("ALICE@example.com"))?.id).toBe(email!.id);
  });

  it("a refresh-token rotation is undone: the old pair is live again and the new one never existed", async () => {
    const store = await seeded();
    const before = await snapshot(store);
    await expect(
      store.transaction(async (tx) => {
        const pair = await tx.oauth.oauthTokens.findByRefreshDigest("refresh-1");
        expect(await tx.oauth.oauthTokens.rotate(pair!.id, { ...tokenInput(2), familyId: "family-1" }, NOW)).not.toBeNull();
        throw rejected;
      }),
    ).rejects.toBe(rejected);
    expect(await snapshot(store)).toEqual(before);
    expect((await store.oauth.oauthTokens.findByRefreshDigest("refresh-1"))?.revokedAt).toBeNull();
  });

  it("a table added lazily inside the transaction is gone after the rollback", async () => {
    const store = await seeded();
    await expect(
      store.transaction(async (tx) => {
        await tx.storageMoves.moves.create({ kind: "project", containerId: 1, state: "initial", sourceStorage: "default", destinationStorage: "other" }, NOW);
        throw rejected;
      }),
    ).rejects.toBe(rejected);
    expect(await store.storageMoves.moves.findById(1)).toBeNull();
    expect((await store.storageMoves.moves.create({ kind: "project", containerId: 1, state: "initial", sourceStorage: "default", destinationStorage: "other" }, NOW)).id).toBe(1);
  });

  it("a commit keeps every change", async () => {
    const store = await seeded();
    await store.transaction(async (tx) => {
      await tx.users.update(1, { name: "Alicia" });
      await tx.users.create({ username: "bob", name: "Bob" }, NOW);
    });
    expect((await store.users.findById(1))?.name).toBe("Alicia");
    expect((await store.users.findByUsername("bob"))?.id).toBe(2);
  });
});

describe("memoryStore().transaction - reads inside a transaction", () => {
  it("see the transaction's own writes", async () => {
    const store = await seeded();
    await store.transaction(async (tx) => {
      await tx.users.update(1, { name: "Changed" });
      expect((await tx.users.findById(1))?.name).toBe("Changed");
      await tx.settings.set("x", "1");
      expect(await tx.settings.get("x")).toBe("1");
    });
  });
});

describe("memoryStore - entities handed out do not alias stored rows", () => {
  it("changing a returned entity, or the input after a write, changes nothing stored", async () => {
    const store = await seeded();
    const user = (await store.users.findById(1))!;
    user.name = "Mallory";
    user.createdAt.setTime(0);
    const pair = (await store.oauth.oauthTokens.findByRefreshDigest("refresh-1"))!;
    pair.scopes.push("sudo");
    const input = tokenInput(3);
    await store.oauth.oauthTokens.create(input, NOW);
    input.scopes.push("sudo");
    expect((await store.users.findById(1))?.name).toBe("Alice");
    expect((await store.users.findById(1))?.createdAt).toEqual(NOW);
    expect((await store.oauth.oauthTokens.findByRefreshDigest("refresh-1"))?.scopes).toEqual(["api"]);
    expect((await store.oauth.oauthTokens.findByRefreshDigest("refresh-3"))?.scopes).toEqual(["api"]);
  });
});
