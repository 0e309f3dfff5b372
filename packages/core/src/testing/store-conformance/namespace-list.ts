/** Conformance: NamespaceRepository.listNamespaces and membersWithDescendants (`GET /namespaces`). */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import type { NamespaceListFilter } from "../../ports/namespace-list.js";
import { addMember, at, ids, makeGroup, makeUser, makeUserNamespace, unique, type SuiteContext } from "./context.js";

export function namespaceListTests(ctx: SuiteContext): void {
  const listIds = async (filter: NamespaceListFilter, perPage = 100, page = 1) => ids((await ctx.store.namespaces.listNamespaces(filter, { kind: "offset", page, perPage })).items);

  async function world() {
    const alice = await makeUser(ctx.store);
    const own = await makeUserNamespace(ctx.store, alice);
    const bob = await makeUser(ctx.store);
    const bobs = await makeUserNamespace(ctx.store, bob);
    const owned = await makeGroup(ctx.store);
    const joined = await makeGroup(ctx.store, { visibility: "public" });
    const child = await makeGroup(ctx.store, { parent: owned });
    const other = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: owned }, alice, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: joined }, alice, AccessLevel.Developer);
    await addMember(ctx.store, { kind: "namespace", of: other }, bob, AccessLevel.Owner);
    return { alice, own, bob, bobs, owned, joined, child, other };
  }

  it("namespaces.listNamespaces - a member gets their own namespace and the groups of their direct memberships, by id", async () => {
    const { alice, own, owned, joined } = await world();
    expect(await listIds({ memberId: alice.id })).toEqual([own.id, owned.id, joined.id].sort((a, b) => a - b));
  });

  it("namespaces.listNamespaces - ownedOnly keeps the personal namespace and the groups the member owns", async () => {
    const { alice, own, owned } = await world();
    expect(await listIds({ memberId: alice.id, ownedOnly: true })).toEqual([own.id, owned.id].sort((a, b) => a - b));
  });

  it("namespaces.listNamespaces - memberships expired at now do not count", async () => {
    const { alice, own, owned, joined } = await world();
    const lapsed = await makeGroup(ctx.store);
    await ctx.store.members.add({ sourceType: "namespace", sourceId: lapsed.id, userId: alice.id, accessLevel: AccessLevel.Guest, expiresAt: at(5) }, at(0));
    expect(await listIds({ memberId: alice.id, now: at(4) })).toContain(lapsed.id);
    expect(await listIds({ memberId: alice.id, now: at(5) })).toEqual([own.id, owned.id, joined.id].sort((a, b) => a - b));
  });

  it("namespaces.listNamespaces - without memberId every namespace, filtered by top level and search", async () => {
    const { own, bobs, owned, joined, child, other } = await world();
    const all = await listIds({});
    for (const id of [own.id, bobs.id, owned.id, joined.id, child.id, other.id]) expect(all).toContain(id);
    const top = await listIds({ topLevelOnly: true });
    expect(top).toContain(owned.id);
    expect(top).not.toContain(child.id);
    const found = await ctx.store.namespaces.findById(child.id);
    const search = found?.path.toUpperCase().slice(2) ?? unique("none");
    expect(await listIds({ search })).toEqual([child.id]);
  });

  it("namespaces.listNamespaces - pages by id with a total", async () => {
    const { alice, own, owned, joined } = await world();
    const second = await ctx.store.namespaces.listNamespaces({ memberId: alice.id }, { kind: "offset", page: 2, perPage: 2 });
    expect(ids(second.items)).toEqual([Math.max(own.id, owned.id, joined.id)]);
    expect(second.total).toBe(3);
    expect(second.hasNext).toBe(false);
  });

  it("namespaces.membersWithDescendants - counts distinct unexpired members of the group and its descendants", async () => {
    const { alice, bob, owned, child, joined, own } = await world();
    const carol = await makeUser(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: child }, alice, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "namespace", of: child }, bob, AccessLevel.Guest);
    await ctx.store.members.add({ sourceType: "namespace", sourceId: child.id, userId: carol.id, accessLevel: AccessLevel.Guest, expiresAt: at(1) }, at(0));
    const counts = await ctx.store.namespaces.membersWithDescendants([owned.id, child.id, joined.id, own.id], at(2));
    expect(counts.get(owned.id)).toBe(2);
    expect(counts.get(child.id)).toBe(2);
    expect(counts.get(joined.id)).toBe(1);
    expect(counts.has(own.id)).toBe(false);
  });
}
