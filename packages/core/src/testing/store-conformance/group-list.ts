/** Conformance: NamespaceRepository.listGroups (visibility, filters, order, keyset). */
import { expect, it } from "vitest";
import { AccessLevel, type Namespace } from "../../accounts/types.js";
import type { GroupListFilter, KeysetPageResult, OffsetPageResult } from "../../ports/store.js";
import { addMember, at, ids, makeGroup, makeProject, makeUser, makeUserNamespace, viewerOf, type SuiteContext } from "./context.js";

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

export function groupListTests(ctx: SuiteContext): void {
  const list = async (filter: GroupListFilter, perPage = 100) =>
    (await ctx.store.namespaces.listGroups(filter, { kind: "offset", page: 1, perPage })) as OffsetPageResult<Namespace>;
  const listIds = async (filter: GroupListFilter) => sorted(ids((await list(filter)).items));

  async function world() {
    const alice = await makeUser(ctx.store);
    const bob = await makeUser(ctx.store);
    await makeUserNamespace(ctx.store, bob, "public");
    const pub = await makeGroup(ctx.store, { visibility: "public" });
    const int = await makeGroup(ctx.store, { visibility: "internal" });
    const priv = await makeGroup(ctx.store, { visibility: "private" });
    return { alice, bob, pub, int, priv };
  }

  it("namespaces.listGroups - anonymous viewers see public groups only, never user namespaces", async () => {
    const { pub } = await world();
    expect(await listIds({ viewer: null })).toEqual([pub.id]);
  });

  it("namespaces.listGroups - signed-in viewers see public and internal groups, not others' private ones", async () => {
    const { alice, pub, int } = await world();
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id]));
  });

  it("namespaces.listGroups - admins see every group", async () => {
    const { alice, pub, int, priv } = await world();
    expect(await listIds({ viewer: viewerOf(alice, true) })).toEqual(sorted([pub.id, int.id, priv.id]));
  });

  it("namespaces.listGroups - a member sees the private group and its private descendants", async () => {
    const { alice, pub, int } = await world();
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    const grandchild = await makeGroup(ctx.store, { parent: child });
    await addMember(ctx.store, { kind: "namespace", of: top }, alice, AccessLevel.Guest);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, top.id, child.id, grandchild.id]));
  });

  it("namespaces.listGroups - a member of a descendant sees its private ancestors but not private siblings", async () => {
    const { alice, pub, int } = await world();
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    await makeGroup(ctx.store, { parent: top });
    const leaf = await makeGroup(ctx.store, { parent: child });
    await addMember(ctx.store, { kind: "namespace", of: leaf }, alice, AccessLevel.Reporter);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, top.id, child.id, leaf.id]));
  });

  it("namespaces.listGroups - a member of a project sees the private groups above it", async () => {
    const { alice, pub, int } = await world();
    const top = await makeGroup(ctx.store);
    const sub = await makeGroup(ctx.store, { parent: top });
    await makeGroup(ctx.store, { parent: sub });
    const project = await makeProject(ctx.store, sub);
    await addMember(ctx.store, { kind: "project", of: project }, alice, AccessLevel.Guest);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, top.id, sub.id]));
  });

  it("namespaces.listGroups - memberships expired at `now` are ignored; without `now` every membership counts", async () => {
    const { alice, pub, int } = await world();
    const group = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: group }, alice, AccessLevel.Developer, at(10));
    expect(await listIds({ viewer: viewerOf(alice), now: at(10) })).toEqual(sorted([pub.id, int.id]));
    expect(await listIds({ viewer: viewerOf(alice), now: at(9) })).toEqual(sorted([pub.id, int.id, group.id]));
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, group.id]));
  });

  it("namespaces.listGroups - search matches name or path case-insensitively as a substring", async () => {
    const byName = await makeGroup(ctx.store, { path: "g-one", name: "Needle Group", visibility: "public" });
    const byPath = await makeGroup(ctx.store, { path: "has-NEEDLE", name: "Other", visibility: "public" });
    await makeGroup(ctx.store, { path: "plain", name: "Plain", visibility: "public" });
    expect(await listIds({ viewer: null, search: "needle" })).toEqual(sorted([byName.id, byPath.id]));
    expect(await listIds({ viewer: null, search: "e_g" })).toEqual([]);
  });

  it("namespaces.listGroups - topLevelOnly and parentId narrow by hierarchy", async () => {
    const top = await makeGroup(ctx.store, { visibility: "public" });
    const other = await makeGroup(ctx.store, { visibility: "public" });
    const child = await makeGroup(ctx.store, { parent: top, visibility: "public" });
    await makeGroup(ctx.store, { parent: child, visibility: "public" });
    expect(await listIds({ viewer: null, topLevelOnly: true })).toEqual(sorted([top.id, other.id]));
    expect(await listIds({ viewer: null, parentId: top.id })).toEqual([child.id]);
    expect(await listIds({ viewer: null, parentId: other.id })).toEqual([]);
  });

  it("namespaces.listGroups - minAccessLevel keeps groups where the viewer's direct or inherited level reaches it", async () => {
    const { alice } = await world();
    const dev = await makeGroup(ctx.store);
    const devChild = await makeGroup(ctx.store, { parent: dev });
    const guest = await makeGroup(ctx.store, { visibility: "public" });
    await addMember(ctx.store, { kind: "namespace", of: dev }, alice, AccessLevel.Developer);
    await addMember(ctx.store, { kind: "namespace", of: guest }, alice, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "namespace", of: devChild }, alice, AccessLevel.Guest);
    expect(await listIds({ viewer: viewerOf(alice), minAccessLevel: AccessLevel.Developer })).toEqual(sorted([dev.id, devChild.id]));
    expect(await listIds({ viewer: viewerOf(alice), minAccessLevel: AccessLevel.Guest })).toEqual(sorted([dev.id, devChild.id, guest.id]));
    expect(await listIds({ viewer: viewerOf(alice, true), minAccessLevel: AccessLevel.Maintainer })).toEqual([]);
    expect(await listIds({ viewer: null, minAccessLevel: AccessLevel.Guest })).toEqual([]);
  });

  it("namespaces.listGroups - owned keeps groups where the viewer is Owner, directly or inherited", async () => {
    const { alice } = await world();
    const owned = await makeGroup(ctx.store);
    const inherited = await makeGroup(ctx.store, { parent: owned });
    const maintained = await makeGroup(ctx.store, { visibility: "public" });
    await addMember(ctx.store, { kind: "namespace", of: owned }, alice, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: maintained }, alice, AccessLevel.Maintainer);
    expect(await listIds({ viewer: viewerOf(alice), owned: true })).toEqual(sorted([owned.id, inherited.id]));
    expect(await listIds({ viewer: null, owned: true })).toEqual([]);
  });

  it("namespaces.listGroups - orders by name case-insensitively by default, ties by id, in either direction", async () => {
    const b1 = await makeGroup(ctx.store, { name: "beta", visibility: "public" });
    const a = await makeGroup(ctx.store, { name: "Alpha", visibility: "public" });
    const b2 = await makeGroup(ctx.store, { name: "Beta", visibility: "public" });
    const c = await makeGroup(ctx.store, { name: "charlie", visibility: "public" });
    expect(ids((await list({ viewer: null })).items)).toEqual([a.id, b1.id, b2.id, c.id]);
    expect(ids((await list({ viewer: null, sort: "desc" })).items)).toEqual([c.id, b2.id, b1.id, a.id]);
  });

  it("namespaces.listGroups - orders by path or id when asked", async () => {
    const z = await makeGroup(ctx.store, { path: "Zed", name: "a", visibility: "public" });
    const m = await makeGroup(ctx.store, { path: "mid", name: "b", visibility: "public" });
    const a = await makeGroup(ctx.store, { path: "ant", name: "c", visibility: "public" });
    expect(ids((await list({ viewer: null, orderBy: "path" })).items)).toEqual([a.id, m.id, z.id]);
    expect(ids((await list({ viewer: null, orderBy: "id", sort: "desc" })).items)).toEqual([a.id, m.id, z.id]);
    expect(ids((await list({ viewer: null, orderBy: "id" })).items)).toEqual([z.id, m.id, a.id]);
  });

  it("namespaces.listGroups - keyset pages by name walk every visible group once, ties included", async () => {
    const names = ["delta", "Alpha", "alpha", "Bravo", "alpha", "charlie", "echo"];
    const groups: Namespace[] = [];
    for (const name of names) groups.push(await makeGroup(ctx.store, { name, visibility: "public" }));
    await makeGroup(ctx.store, { name: "aaa-private" });
    for (const sort of ["asc", "desc"] as const) {
      const seen: Namespace[] = [];
      let after: string | undefined;
      for (let round = 0; round < 10; round++) {
        const page = (await ctx.store.namespaces.listGroups({ viewer: null, sort }, { kind: "keyset", perPage: 2, after })) as KeysetPageResult<Namespace>;
        seen.push(...page.items);
        if (page.nextCursor === null) break;
        expect(page.items).toHaveLength(2);
        after = page.nextCursor;
      }
      const expected = (await list({ viewer: null, sort })).items;
      expect(ids(seen)).toEqual(ids(expected));
      expect(seen).toHaveLength(names.length);
    }
  });

  it("namespaces.listGroups - keyset nextCursor is null when the last page is exactly full", async () => {
    await makeGroup(ctx.store, { name: "one", visibility: "public" });
    await makeGroup(ctx.store, { name: "two", visibility: "public" });
    const page = (await ctx.store.namespaces.listGroups({ viewer: null }, { kind: "keyset", perPage: 2 })) as KeysetPageResult<Namespace>;
    expect(page.items).toHaveLength(2);
    expect(page.nextCursor).toBeNull();
  });

  it("namespaces.listGroups - keyset rejects orderings other than name and cursors it did not issue", async () => {
    await makeGroup(ctx.store, { visibility: "public" });
    await expect(ctx.store.namespaces.listGroups({ viewer: null, orderBy: "path" }, { kind: "keyset", perPage: 2 })).rejects.toThrow();
    await expect(ctx.store.namespaces.listGroups({ viewer: null }, { kind: "keyset", perPage: 2, after: "not a cursor" })).rejects.toThrow();
  });
}
