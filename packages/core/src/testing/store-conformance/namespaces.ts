/** Conformance: NamespaceRepository create, lookups and ancestors. */
import { expect, it } from "vitest";
import { T0, ids, makeGroup, makeUser, type SuiteContext } from "./context.js";

export function namespaceTests(ctx: SuiteContext): void {
  it("namespaces.create - a top-level group's full path is its path, description defaults to empty", async () => {
    const group = await ctx.store.namespaces.create(
      { kind: "group", path: "Top", name: "Top Group", parentId: null, ownerId: null, visibility: "internal" },
      T0,
    );
    expect(group).toEqual({
      id: expect.any(Number),
      kind: "group",
      path: "Top",
      name: "Top Group",
      fullPath: "Top",
      parentId: null,
      ownerId: null,
      visibility: "internal",
      description: "",
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it("namespaces.create - a subgroup's full path extends its parent's", async () => {
    const top = await makeGroup(ctx.store, { path: "acme" });
    const mid = await makeGroup(ctx.store, { path: "Tools", parent: top, description: "tools" });
    const leaf = await makeGroup(ctx.store, { path: "cli", parent: mid });
    expect(mid).toMatchObject({ fullPath: "acme/Tools", parentId: top.id, description: "tools" });
    expect(leaf.fullPath).toBe("acme/Tools/cli");
  });

  it("namespaces.create - a user namespace keeps its owner", async () => {
    const user = await makeUser(ctx.store);
    const namespace = await ctx.store.namespaces.create(
      { kind: "user", path: user.username, name: user.name, parentId: null, ownerId: user.id, visibility: "public" },
      T0,
    );
    expect(namespace).toMatchObject({ kind: "user", ownerId: user.id, fullPath: user.username, parentId: null });
  });

  it("namespaces.create - returns null when the full path is taken case-insensitively", async () => {
    const top = await makeGroup(ctx.store, { path: "Taken" });
    await makeGroup(ctx.store, { path: "child", parent: top });
    const again = { kind: "group" as const, name: "x", ownerId: null, visibility: "public" as const };
    expect(await ctx.store.namespaces.create({ ...again, path: "tAKEN", parentId: null }, T0)).toBeNull();
    expect(await ctx.store.namespaces.create({ ...again, path: "CHILD", parentId: top.id }, T0)).toBeNull();
    expect(await ctx.store.namespaces.findByFullPath("taken")).toMatchObject({ id: top.id, name: "Taken" });
  });

  it("namespaces.create - the same path may appear under different parents", async () => {
    const a = await makeGroup(ctx.store);
    const b = await makeGroup(ctx.store);
    const underA = await makeGroup(ctx.store, { path: "shared", parent: a });
    const underB = await makeGroup(ctx.store, { path: "shared", parent: b });
    expect(underA.id).not.toBe(underB.id);
    expect(await ctx.store.namespaces.create({ kind: "group", path: "shared", name: "s", parentId: null, ownerId: null, visibility: "public" }, T0)).not.toBeNull();
  });

  it("namespaces.findById - returns the namespace, or null when unknown", async () => {
    const group = await makeGroup(ctx.store);
    expect(await ctx.store.namespaces.findById(group.id)).toEqual(group);
    expect(await ctx.store.namespaces.findById(group.id + 1000)).toBeNull();
  });

  it("namespaces.findByFullPath - matches the whole path case-insensitively, null otherwise", async () => {
    const top = await makeGroup(ctx.store, { path: "Org" });
    const sub = await makeGroup(ctx.store, { path: "Team", parent: top });
    expect(await ctx.store.namespaces.findByFullPath("org/team")).toEqual(sub);
    expect(await ctx.store.namespaces.findByFullPath("ORG")).toEqual(top);
    expect(await ctx.store.namespaces.findByFullPath("team")).toBeNull();
    expect(await ctx.store.namespaces.findByFullPath("org/tea")).toBeNull();
  });

  it("namespaces.ancestors - nearest parent first, the namespace itself excluded", async () => {
    const a = await makeGroup(ctx.store);
    const b = await makeGroup(ctx.store, { parent: a });
    const c = await makeGroup(ctx.store, { parent: b });
    const d = await makeGroup(ctx.store, { parent: c });
    expect(ids(await ctx.store.namespaces.ancestors(d.id))).toEqual([c.id, b.id, a.id]);
    expect(await ctx.store.namespaces.ancestors(b.id)).toEqual([a]);
  });

  it("namespaces.ancestors - empty for a top-level or unknown namespace", async () => {
    const a = await makeGroup(ctx.store);
    expect(await ctx.store.namespaces.ancestors(a.id)).toEqual([]);
    expect(await ctx.store.namespaces.ancestors(a.id + 1000)).toEqual([]);
  });

  it("namespaces.chain - the namespace itself, then its ancestors nearest first; empty when unknown", async () => {
    const a = await makeGroup(ctx.store);
    const b = await makeGroup(ctx.store, { parent: a });
    const c = await makeGroup(ctx.store, { parent: b });
    expect(ids(await ctx.store.namespaces.chain(c.id))).toEqual([c.id, b.id, a.id]);
    expect(await ctx.store.namespaces.chain(b.id)).toEqual([b, a]);
    expect(await ctx.store.namespaces.chain(a.id)).toEqual([a]);
    expect(await ctx.store.namespaces.chain(c.id + 1000)).toEqual([]);
  });
}
