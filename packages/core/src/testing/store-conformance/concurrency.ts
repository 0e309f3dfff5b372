/** Conformance: what racing callers may observe (DESIGN §5 "what happens under a race"). */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { T0, digest, makeGroup, makeUser, type SuiteContext } from "./context.js";

const RACERS = 8;

function race<T>(make: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: RACERS }, (_, i) => make(i)));
}

const winners = (results: readonly unknown[]) => results.filter((result) => result !== null && result !== false).length;

export function concurrencyTests(ctx: SuiteContext): void {
  it("users.create - exactly one of several racing callers gets the username", async () => {
    const results = await race((i) => ctx.store.users.create({ username: i % 2 === 0 ? "racer" : "RACER", name: `r${i}` }, T0));
    expect(winners(results)).toBe(1);
  });

  it("emails.add - exactly one of several racing callers gets the address", async () => {
    const users = await Promise.all(Array.from({ length: RACERS }, () => makeUser(ctx.store)));
    const results = await race((i) => ctx.store.emails.add({ userId: users[i]!.id, email: "race@example.com", primary: true, confirmedAt: null }, T0));
    expect(winners(results)).toBe(1);
  });

  it("emails.add - racing primaries for one user leave exactly one primary", async () => {
    const user = await makeUser(ctx.store);
    await race((i) => ctx.store.emails.add({ userId: user.id, email: `p${i}@example.com`, primary: true, confirmedAt: null }, T0));
    const emails = await ctx.store.emails.listByUser(user.id);
    expect(emails).toHaveLength(RACERS);
    expect(emails.filter((email) => email.primary)).toHaveLength(1);
  });

  it("namespaces.create - exactly one of several racing callers gets the full path", async () => {
    const parent = await makeGroup(ctx.store);
    const results = await race(() =>
      ctx.store.namespaces.create({ kind: "group", path: "contested", name: "c", parentId: parent.id, ownerId: null, visibility: "public" }, T0),
    );
    expect(winners(results)).toBe(1);
    expect(await ctx.store.namespaces.ancestors(results.find((r) => r !== null)!.id)).toEqual([parent]);
  });

  it("projects.create - exactly one of several racing callers gets the path", async () => {
    const group = await makeGroup(ctx.store);
    const results = await race((i) =>
      ctx.store.projects.create({ namespaceId: group.id, path: i % 2 === 0 ? "repo" : "Repo", name: "r", visibility: "private", creatorId: null }, T0),
    );
    expect(winners(results)).toBe(1);
  });

  it("members.add - exactly one of several racing callers adds the same user", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const results = await race(() => ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Developer }, T0));
    expect(winners(results)).toBe(1);
    expect(await ctx.store.members.listBySource("namespace", group.id)).toHaveLength(1);
  });

  it("accessTokens.revoke - exactly one of several racing callers revokes", async () => {
    const user = await makeUser(ctx.store);
    const token = await ctx.store.accessTokens.create({ kind: "personal", userId: user.id, name: "t", scopes: [], digest: digest(), expiresAt: null }, T0);
    expect(winners(await race(() => ctx.store.accessTokens.revoke(token.id)))).toBe(1);
  });

  it("transaction - concurrent transactions both commit their writes", async () => {
    await race((i) =>
      ctx.store.transaction(async (tx) => {
        const user = await makeUser(tx, { username: `tx-racer-${i}` });
        await tx.settings.set(`racer-${i}`, String(user.id));
      }),
    );
    for (let i = 0; i < RACERS; i++) {
      const user = await ctx.store.users.findByUsername(`tx-racer-${i}`);
      expect(await ctx.store.settings.get(`racer-${i}`)).toBe(String(user?.id));
    }
  });

  it("transaction - racing transactions creating the same username: one commits, the other sees null", async () => {
    const outcomes = await race((i) =>
      ctx.store.transaction(async (tx) => {
        const user = await tx.users.create({ username: "tx-contested", name: `n${i}` }, T0);
        if (user !== null) await tx.settings.set("tx-contested-winner", String(i));
        return user;
      }),
    );
    expect(winners(outcomes)).toBe(1);
    const winner = outcomes.findIndex((user) => user !== null);
    expect(await ctx.store.settings.get("tx-contested-winner")).toBe(String(winner));
  });
}
