/** Conformance: EmailRepository. */
import { expect, it } from "vitest";
import { T0, at, ids, makeUser, type SuiteContext } from "./context.js";

export function emailTests(ctx: SuiteContext): void {
  it("emails.add - returns the stored email", async () => {
    const user = await makeUser(ctx.store);
    const email = await ctx.store.emails.add({ userId: user.id, email: "A@Example.com", primary: true, confirmedAt: at(1) }, T0);
    expect(email).toEqual({ id: expect.any(Number), userId: user.id, email: "A@Example.com", primary: true, confirmedAt: at(1), createdAt: T0 });
  });

  it("emails.add - returns null when the address belongs to any user, case-insensitively", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    await ctx.store.emails.add({ userId: a.id, email: "taken@example.com", primary: false, confirmedAt: null }, T0);
    expect(await ctx.store.emails.add({ userId: a.id, email: "TAKEN@example.com", primary: false, confirmedAt: null }, T0)).toBeNull();
    expect(await ctx.store.emails.add({ userId: b.id, email: "taken@EXAMPLE.com", primary: true, confirmedAt: null }, T0)).toBeNull();
    expect(await ctx.store.emails.listByUser(b.id)).toEqual([]);
    expect(await ctx.store.emails.listByUser(a.id)).toHaveLength(1);
  });

  it("emails.add - a new primary demotes the old one", async () => {
    const user = await makeUser(ctx.store);
    const first = await ctx.store.emails.add({ userId: user.id, email: "one@example.com", primary: true, confirmedAt: null }, T0);
    const second = await ctx.store.emails.add({ userId: user.id, email: "two@example.com", primary: true, confirmedAt: null }, T0);
    expect(await ctx.store.emails.primaryFor(user.id)).toEqual(second);
    const all = await ctx.store.emails.listByUser(user.id);
    expect(all.map((e) => [e.id, e.primary])).toEqual([
      [first!.id, false],
      [second!.id, true],
    ]);
  });

  it("emails.add - a refused primary leaves the old primary in place", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    const primary = await ctx.store.emails.add({ userId: a.id, email: "a@example.com", primary: true, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: b.id, email: "b@example.com", primary: true, confirmedAt: null }, T0);
    expect(await ctx.store.emails.add({ userId: a.id, email: "B@example.com", primary: true, confirmedAt: null }, T0)).toBeNull();
    expect(await ctx.store.emails.primaryFor(a.id)).toEqual(primary);
  });

  it("emails.add - a secondary address keeps the primary, and other users' primaries are untouched", async () => {
    const user = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const primary = await ctx.store.emails.add({ userId: user.id, email: "p@example.com", primary: true, confirmedAt: null }, T0);
    const otherPrimary = await ctx.store.emails.add({ userId: other.id, email: "o@example.com", primary: true, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: user.id, email: "s@example.com", primary: false, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: user.id, email: "p2@example.com", primary: true, confirmedAt: null }, T0);
    expect(await ctx.store.emails.primaryFor(other.id)).toEqual(otherPrimary);
    expect((await ctx.store.emails.listByUser(user.id)).find((e) => e.id === primary!.id)?.primary).toBe(false);
  });

  it("emails.listByUser - returns only that user's addresses, by id ascending", async () => {
    const user = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const e1 = await ctx.store.emails.add({ userId: user.id, email: "z@example.com", primary: false, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: other.id, email: "m@example.com", primary: false, confirmedAt: null }, T0);
    const e2 = await ctx.store.emails.add({ userId: user.id, email: "a@example.com", primary: true, confirmedAt: null }, T0);
    expect(ids(await ctx.store.emails.listByUser(user.id))).toEqual([e1!.id, e2!.id]);
    expect(await ctx.store.emails.listByUser(user.id + 1000)).toEqual([]);
  });

  it("emails.findByEmail - matches case-insensitively, null when unknown", async () => {
    const user = await makeUser(ctx.store);
    const email = await ctx.store.emails.add({ userId: user.id, email: "Find.Me@Example.com", primary: false, confirmedAt: null }, T0);
    expect(await ctx.store.emails.findByEmail("find.me@example.COM")).toEqual(email);
    expect(await ctx.store.emails.findByEmail("find@example.com")).toBeNull();
  });

  it("emails.primaryFor - null when the user has no primary address", async () => {
    const user = await makeUser(ctx.store);
    expect(await ctx.store.emails.primaryFor(user.id)).toBeNull();
    await ctx.store.emails.add({ userId: user.id, email: "sec@example.com", primary: false, confirmedAt: null }, T0);
    expect(await ctx.store.emails.primaryFor(user.id)).toBeNull();
  });
}
