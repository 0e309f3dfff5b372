/** Conformance: UserRepository list order and filters, holdings and remove; EmailRepository.remove. */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { T0, addMember, at, digest, ids, makeGroup, makeProject, makeUser, makeUserNamespace, type SuiteContext } from "./context.js";

const firstPage = { kind: "offset", page: 1, perPage: 100 } as const;

export function userRemovalTests(ctx: SuiteContext): void {
  it("users.list - username matches exactly, case-insensitively", async () => {
    const exact = await makeUser(ctx.store, { username: "Exactly" });
    await makeUser(ctx.store, { username: "Exactly2" });
    expect(ids((await ctx.store.users.list({ username: "eXACTLY" }, firstPage)).items)).toEqual([exact.id]);
    expect((await ctx.store.users.list({ username: "exact" }, firstPage)).items).toEqual([]);
  });

  it("users.list - orders by the given key and direction, ties broken by id in that direction", async () => {
    const b = await makeUser(ctx.store, { name: "beta" }, at(2));
    const a1 = await makeUser(ctx.store, { name: "Alpha" }, at(1));
    const a2 = await makeUser(ctx.store, { name: "alpha" }, at(3));
    expect(ids((await ctx.store.users.list({ orderBy: "name" }, firstPage)).items)).toEqual([a1.id, a2.id, b.id]);
    expect(ids((await ctx.store.users.list({ orderBy: "name", sort: "desc" }, firstPage)).items)).toEqual([b.id, a2.id, a1.id]);
    expect(ids((await ctx.store.users.list({ orderBy: "created_at" }, firstPage)).items)).toEqual([a1.id, b.id, a2.id]);
    expect(ids((await ctx.store.users.list({ sort: "desc" }, firstPage)).items)).toEqual([a2.id, a1.id, b.id]);
  });

  it("users.holdings - all zero for a user who holds nothing, and for an unknown id", async () => {
    const user = await makeUser(ctx.store);
    await makeUserNamespace(ctx.store, user);
    const none = { projects: 0, soleOwnedGroups: 0, authoredRecords: 0 };
    expect(await ctx.store.users.holdings(user.id)).toEqual(none);
    expect(await ctx.store.users.holdings(user.id + 1000)).toEqual(none);
  });

  it("users.holdings - counts personal projects, solely owned groups and authored records", async () => {
    const user = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const namespace = await makeUserNamespace(ctx.store, user);
    const project = await makeProject(ctx.store, namespace);
    const alone = await makeGroup(ctx.store);
    const shared = await makeGroup(ctx.store);
    const maintained = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: alone }, user, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: shared }, user, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: shared }, other, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: maintained }, user, AccessLevel.Maintainer);
    await ctx.store.activity.issues.create({ projectId: project.id, title: "t", description: "", confidential: false, authorId: user.id }, T0);
    await ctx.store.activity.issues.create({ projectId: project.id, title: "t", description: "", confidential: false, authorId: other.id }, T0);
    expect(await ctx.store.users.holdings(user.id)).toEqual({ projects: 1, soleOwnedGroups: 1, authoredRecords: 1 });
  });

  it("users.holdings - with `now`, an Owner membership expired at `now` owns nothing, the user's or another's; without it every row", async () => {
    const [staying, lapsing, other] = [await makeUser(ctx.store), await makeUser(ctx.store), await makeUser(ctx.store)];
    const shared = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: shared }, staying, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: shared }, other, AccessLevel.Owner, at(5));
    const own = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: own }, lapsing, AccessLevel.Owner, at(5));
    const sole = async (user: { id: number }) =>
      Promise.all([undefined, at(4), at(5)].map(async (now) => (await ctx.store.users.holdings(user.id, now)).soleOwnedGroups));
    // The other Owner's membership lapses at 5: from then on `staying` is the group's only Owner.
    expect(await sole(staying)).toEqual([0, 0, 1]);
    // `lapsing`'s own Owner membership lapses at 5: from then on they own nothing.
    expect(await sole(lapsing)).toEqual([1, 1, 0]);
  });

  it("users.remove - deletes the user with namespace, e-mails, memberships and tokens, freeing username and address", async () => {
    const user = await makeUser(ctx.store, { username: "leaving" });
    const namespace = await makeUserNamespace(ctx.store, user);
    const group = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: group }, user, AccessLevel.Developer);
    await ctx.store.emails.add({ userId: user.id, email: "leaving@example.com", primary: true, confirmedAt: null }, T0);
    const token = await ctx.store.accessTokens.create({ kind: "personal", userId: user.id, name: "t", scopes: ["api"], digest: digest(), expiresAt: null }, T0);
    expect(await ctx.store.users.remove(user.id)).toBe(true);
    expect(await ctx.store.users.findById(user.id)).toBeNull();
    expect(await ctx.store.namespaces.findById(namespace.id)).toBeNull();
    expect(await ctx.store.emails.findByEmail("leaving@example.com")).toBeNull();
    expect(await ctx.store.accessTokens.findById(token.id)).toBeNull();
    expect(await ctx.store.members.find("namespace", group.id, user.id)).toBeNull();
    const again = await makeUser(ctx.store, { username: "LEAVING" });
    expect(await makeUserNamespace(ctx.store, again)).toMatchObject({ path: "LEAVING" });
    expect(await ctx.store.emails.add({ userId: again.id, email: "leaving@example.com", primary: true, confirmedAt: null }, T0)).not.toBeNull();
  });

  it("users.remove - false for an unknown id; other users stay", async () => {
    const stays = await makeUser(ctx.store);
    expect(await ctx.store.users.remove(stays.id + 1000)).toBe(false);
    expect(await ctx.store.users.findById(stays.id)).toEqual(stays);
  });

  it("users.remove - inside a rolled-back transaction leaves the user in place", async () => {
    const user = await makeUser(ctx.store);
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.users.remove(user.id);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await ctx.store.users.findById(user.id)).toEqual(user);
  });

  it("emails.primaryForUsers - the primary address of each given user that has one", async () => {
    const a = await makeUser(ctx.store);
    const b = await makeUser(ctx.store);
    const none = await makeUser(ctx.store);
    const primaryA = await ctx.store.emails.add({ userId: a.id, email: "pa@example.com", primary: true, confirmedAt: null }, T0);
    await ctx.store.emails.add({ userId: a.id, email: "sa@example.com", primary: false, confirmedAt: null }, T0);
    const primaryB = await ctx.store.emails.add({ userId: b.id, email: "pb@example.com", primary: true, confirmedAt: at(1) }, T0);
    const found = await ctx.store.emails.primaryForUsers([b.id, a.id, none.id, a.id]);
    expect([...found].sort((x, y) => x.id - y.id)).toEqual([primaryA, primaryB]);
    expect(await ctx.store.emails.primaryForUsers([])).toEqual([]);
  });

  it("emails.confirm - confirms an unconfirmed address once; null for an unknown id", async () => {
    const user = await makeUser(ctx.store);
    const email = await ctx.store.emails.add({ userId: user.id, email: "late@example.com", primary: false, confirmedAt: null }, T0);
    expect(await ctx.store.emails.confirm(email!.id, at(3))).toEqual({ ...email, confirmedAt: at(3) });
    expect(await ctx.store.emails.confirm(email!.id, at(9))).toEqual({ ...email, confirmedAt: at(3) });
    expect(await ctx.store.emails.findByEmail("late@example.com")).toMatchObject({ confirmedAt: at(3) });
    expect(await ctx.store.emails.confirm(email!.id + 1000, at(3))).toBeNull();
  });

  it("emails.remove - deletes one address and frees it; false when unknown", async () => {
    const user = await makeUser(ctx.store);
    const kept = await ctx.store.emails.add({ userId: user.id, email: "kept@example.com", primary: true, confirmedAt: null }, T0);
    const gone = await ctx.store.emails.add({ userId: user.id, email: "gone@example.com", primary: false, confirmedAt: null }, T0);
    expect(await ctx.store.emails.remove(gone!.id)).toBe(true);
    expect(await ctx.store.emails.remove(gone!.id)).toBe(false);
    expect(await ctx.store.emails.listByUser(user.id)).toEqual([kept]);
    expect(await ctx.store.emails.add({ userId: user.id, email: "GONE@example.com", primary: false, confirmedAt: null }, T0)).not.toBeNull();
  });
}

export function userRenameTests(ctx: SuiteContext): void {
  it("users.rename - changes the username and the personal namespace's path and full path", async () => {
    const user = await makeUser(ctx.store, { username: "before" });
    const namespace = await makeUserNamespace(ctx.store, user);
    expect(await ctx.store.users.rename(user.id, "After", at(4))).toBe("renamed");
    expect(await ctx.store.users.findByUsername("after")).toMatchObject({ id: user.id, username: "After", updatedAt: at(4) });
    expect(await ctx.store.users.findByUsername("before")).toBeNull();
    expect(await ctx.store.namespaces.findByFullPath("after")).toMatchObject({ id: namespace.id, path: "After", fullPath: "After" });
    expect(await ctx.store.namespaces.findByFullPath("before")).toBeNull();
    expect(await makeGroup(ctx.store, { path: "before" })).toMatchObject({ fullPath: "before" });
  });

  it("users.rename - taken when another user has the username or a group the path; nothing changes", async () => {
    const user = await makeUser(ctx.store, { username: "stays" });
    const namespace = await makeUserNamespace(ctx.store, user);
    await makeUser(ctx.store, { username: "other" });
    await makeGroup(ctx.store, { path: "agroup" });
    expect(await ctx.store.users.rename(user.id, "OTHER", at(1))).toBe("taken");
    expect(await ctx.store.users.rename(user.id, "AGroup", at(1))).toBe("taken");
    expect(await ctx.store.users.findById(user.id)).toEqual(await ctx.store.users.findByUsername("stays"));
    expect(await ctx.store.namespaces.findByFullPath("stays")).toMatchObject({ id: namespace.id, path: "stays" });
  });

  it("users.rename - may change the case of the user's own username; missing for an unknown id", async () => {
    const user = await makeUser(ctx.store, { username: "casey" });
    await makeUserNamespace(ctx.store, user);
    expect(await ctx.store.users.rename(user.id, "Casey", at(1))).toBe("renamed");
    expect(await ctx.store.namespaces.findByFullPath("casey")).toMatchObject({ path: "Casey" });
    expect(await ctx.store.users.rename(user.id + 1000, "nobody", at(1))).toBe("missing");
  });
}
