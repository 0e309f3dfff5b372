/** Conformance: Store.transaction commit and rollback, and migrate idempotency. */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { T0, digest, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const firstPage = { kind: "offset", page: 1, perPage: 100 } as const;

export function transactionTests(ctx: SuiteContext): void {
  it("transaction - commits every write when fn resolves, and returns fn's value", async () => {
    const result = await ctx.store.transaction(async (tx) => {
      const user = await makeUser(tx, { username: "committed" });
      const group = await makeGroup(tx, { path: "committed-group" });
      await tx.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Owner }, T0);
      await tx.settings.set("k", "v");
      return { userId: user.id, answer: 42 };
    });
    expect(result.answer).toBe(42);
    expect(await ctx.store.users.findByUsername("committed")).toMatchObject({ id: result.userId });
    const group = await ctx.store.namespaces.findByFullPath("committed-group");
    expect(await ctx.store.members.namespaceAccessLevel(result.userId, group!.id, T0)).toBe(AccessLevel.Owner);
    expect(await ctx.store.settings.get("k")).toBe("v");
  });

  it("transaction - reads inside see the transaction's own writes", async () => {
    await ctx.store.transaction(async (tx) => {
      const user = await makeUser(tx, { username: "inside" });
      expect(await tx.users.findByUsername("INSIDE")).toEqual(user);
      const group = await makeGroup(tx);
      const sub = await makeGroup(tx, { parent: group });
      expect(await tx.namespaces.ancestors(sub.id)).toEqual([group]);
      expect((await tx.users.list({}, firstPage)).total).toBe(1);
    });
  });

  it("transaction - rolls back every change when fn rejects, and rejects with fn's error", async () => {
    const before = await makeUser(ctx.store, { username: "before" });
    const token = await ctx.store.accessTokens.create({ kind: "personal", userId: before.id, name: "t", scopes: ["api"], digest: digest(), expiresAt: null }, T0);
    await ctx.store.settings.set("keep", "old");
    const failure = new Error("boom");
    const outcome = ctx.store.transaction(async (tx) => {
      const user = await makeUser(tx, { username: "ghost" });
      await tx.emails.add({ userId: before.id, email: "ghost@example.com", primary: true, confirmedAt: null }, T0);
      const group = await makeGroup(tx, { path: "ghost-group" });
      await makeProject(tx, group, { path: "ghost-project" });
      await tx.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Owner }, T0);
      await tx.users.update(before.id, { name: "Changed" });
      await tx.accessTokens.revoke(token.id);
      await tx.accessTokens.create({ kind: "personal", userId: user.id, name: "t2", scopes: [], digest: digest(), expiresAt: null }, T0);
      await tx.settings.set("keep", "new");
      await tx.settings.set("added", "x");
      throw failure;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(await ctx.store.users.findByUsername("ghost")).toBeNull();
    expect(await ctx.store.emails.findByEmail("ghost@example.com")).toBeNull();
    expect(await ctx.store.namespaces.findByFullPath("ghost-group")).toBeNull();
    expect(await ctx.store.projects.findByFullPath("ghost-group/ghost-project")).toBeNull();
    expect(await ctx.store.users.findById(before.id)).toEqual(before);
    expect(await ctx.store.accessTokens.findById(token.id)).toEqual(token);
    expect(await ctx.store.accessTokens.list({})).toEqual([token]);
    expect(await ctx.store.settings.get("keep")).toBe("old");
    expect(await ctx.store.settings.get("added")).toBeNull();
    expect((await ctx.store.users.list({}, firstPage)).items).toEqual([before]);
  });

  it("transaction - after a rollback the store accepts the same writes again", async () => {
    await expect(
      ctx.store.transaction(async (tx) => {
        await makeUser(tx, { username: "retry" });
        await makeGroup(tx, { path: "retry-group" });
        throw new Error("first attempt fails");
      }),
    ).rejects.toThrow("first attempt fails");
    await ctx.store.transaction(async (tx) => {
      await makeUser(tx, { username: "retry" });
      await makeGroup(tx, { path: "retry-group" });
    });
    expect(await ctx.store.users.findByUsername("retry")).not.toBeNull();
    expect(await ctx.store.namespaces.findByFullPath("retry-group")).not.toBeNull();
  });

  it("transaction - a refused create inside leaves the transaction usable", async () => {
    await makeUser(ctx.store, { username: "exists" });
    await ctx.store.transaction(async (tx) => {
      expect(await tx.users.create({ username: "EXISTS", name: "dup" }, T0)).toBeNull();
      const other = await makeUser(tx, { username: "other" });
      expect(await tx.users.update(other.id, { username: "exists" })).toBeNull();
      await makeUser(tx, { username: "third" });
    });
    expect(await ctx.store.users.findByUsername("other")).not.toBeNull();
    expect(await ctx.store.users.findByUsername("third")).not.toBeNull();
  });

  it("migrate - running it again keeps the schema and the data", async () => {
    const user = await makeUser(ctx.store);
    await ctx.store.migrate();
    await ctx.store.migrate();
    expect(await ctx.store.users.findById(user.id)).toEqual(user);
  });
}
