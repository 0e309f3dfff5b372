/** Conformance: MemberRepository, including access levels over the namespace hierarchy. */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import { T0, addMember, at, ids, makeGroup, makeProject, makeUser, makeUserNamespace, type SuiteContext } from "./context.js";

export function memberTests(ctx: SuiteContext): void {
  it("members.add - returns the membership; expiresAt defaults to null", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const member = await ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Developer }, T0);
    expect(member).toEqual({ id: expect.any(Number), sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: 30, expiresAt: null, createdAt: T0 });
    const expiring = await ctx.store.members.add({ sourceType: "project", sourceId: 5, userId: user.id, accessLevel: AccessLevel.Guest, expiresAt: at(60) }, T0);
    expect(expiring?.expiresAt).toEqual(at(60));
  });

  it("members.add - returns null when the user already is a direct member of that source", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: group }, user, AccessLevel.Guest);
    expect(await ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Owner }, T0)).toBeNull();
    expect((await ctx.store.members.find("namespace", group.id, user.id))?.accessLevel).toBe(AccessLevel.Guest);
  });

  it("members.add - the same user may be a member of a project and a namespace with the same id", async () => {
    const user = await makeUser(ctx.store);
    const a = await ctx.store.members.add({ sourceType: "namespace", sourceId: 1, userId: user.id, accessLevel: AccessLevel.Guest }, T0);
    const b = await ctx.store.members.add({ sourceType: "project", sourceId: 1, userId: user.id, accessLevel: AccessLevel.Guest }, T0);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
  });

  it("members.find - returns the direct membership, or null", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: group });
    const member = await ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: user.id, accessLevel: AccessLevel.Reporter }, T0);
    expect(await ctx.store.members.find("namespace", group.id, user.id)).toEqual(member);
    expect(await ctx.store.members.find("namespace", child.id, user.id)).toBeNull();
    expect(await ctx.store.members.find("project", group.id, user.id)).toBeNull();
  });

  it("members.updateAccessLevel - changes the level, null for an unknown id", async () => {
    const user = await makeUser(ctx.store);
    const member = await ctx.store.members.add({ sourceType: "project", sourceId: 3, userId: user.id, accessLevel: AccessLevel.Guest }, T0);
    const updated = await ctx.store.members.updateAccessLevel(member!.id, AccessLevel.Maintainer);
    expect(updated).toEqual({ ...member, accessLevel: AccessLevel.Maintainer });
    expect(await ctx.store.members.find("project", 3, user.id)).toEqual(updated);
    expect(await ctx.store.members.updateAccessLevel(member!.id + 1000, AccessLevel.Guest)).toBeNull();
  });

  it("members.remove - true when a row was removed, false otherwise", async () => {
    const user = await makeUser(ctx.store);
    const member = await ctx.store.members.add({ sourceType: "project", sourceId: 3, userId: user.id, accessLevel: AccessLevel.Guest }, T0);
    expect(await ctx.store.members.remove(member!.id)).toBe(true);
    expect(await ctx.store.members.remove(member!.id)).toBe(false);
    expect(await ctx.store.members.find("project", 3, user.id)).toBeNull();
    expect(await ctx.store.members.add({ sourceType: "project", sourceId: 3, userId: user.id, accessLevel: AccessLevel.Guest }, T0)).not.toBeNull();
  });

  it("members.listBySource - only that source's direct members, by id ascending", async () => {
    const [u1, u2, u3] = [await makeUser(ctx.store), await makeUser(ctx.store), await makeUser(ctx.store)];
    const group = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: group });
    const m2 = await ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: u2.id, accessLevel: AccessLevel.Owner }, T0);
    const m1 = await ctx.store.members.add({ sourceType: "namespace", sourceId: group.id, userId: u1.id, accessLevel: AccessLevel.Guest }, T0);
    await ctx.store.members.add({ sourceType: "namespace", sourceId: child.id, userId: u3.id, accessLevel: AccessLevel.Guest }, T0);
    await ctx.store.members.add({ sourceType: "project", sourceId: group.id, userId: u3.id, accessLevel: AccessLevel.Guest }, T0);
    expect(ids(await ctx.store.members.listBySource("namespace", group.id))).toEqual([m2!.id, m1!.id]);
    expect(await ctx.store.members.listBySource("namespace", group.id + 1000)).toEqual([]);
  });

  it("members.listBySource - with `now`, only memberships unexpired at `now` (expiry equal to now is expired); without it every row", async () => {
    const [u1, u2, u3] = [await makeUser(ctx.store), await makeUser(ctx.store), await makeUser(ctx.store)];
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const forever = await addMember(ctx.store, { kind: "project", of: project }, u1, AccessLevel.Developer);
    const soon = await addMember(ctx.store, { kind: "project", of: project }, u2, AccessLevel.Maintainer, at(5));
    const later = await addMember(ctx.store, { kind: "project", of: project }, u3, AccessLevel.Guest, at(10));
    expect(ids(await ctx.store.members.listBySource("project", project.id))).toEqual([forever.id, soon.id, later.id]);
    expect(ids(await ctx.store.members.listBySource("project", project.id, at(4)))).toEqual([forever.id, soon.id, later.id]);
    expect(ids(await ctx.store.members.listBySource("project", project.id, at(5)))).toEqual([forever.id, later.id]);
    expect(ids(await ctx.store.members.listBySource("project", project.id, at(10)))).toEqual([forever.id]);
  });

  it("members.namespaceAccessLevel - the highest level over the namespace and its ancestors", async () => {
    const user = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store);
    const mid = await makeGroup(ctx.store, { parent: top });
    const leaf = await makeGroup(ctx.store, { parent: mid });
    await addMember(ctx.store, { kind: "namespace", of: top }, user, AccessLevel.Reporter);
    await addMember(ctx.store, { kind: "namespace", of: leaf }, user, AccessLevel.Guest);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, leaf.id, T0)).toBe(AccessLevel.Reporter);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, mid.id, T0)).toBe(AccessLevel.Reporter);
    await addMember(ctx.store, { kind: "namespace", of: mid }, user, AccessLevel.Maintainer);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, leaf.id, T0)).toBe(AccessLevel.Maintainer);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, top.id, T0)).toBe(AccessLevel.Reporter);
  });

  it("members.namespaceAccessLevel - 0 without membership, for descendants' members, and for unknown namespaces", async () => {
    const user = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    await addMember(ctx.store, { kind: "namespace", of: child }, user, AccessLevel.Owner);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, top.id, T0)).toBe(0);
    expect(await ctx.store.members.namespaceAccessLevel(other.id, child.id, T0)).toBe(0);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, child.id + 1000, T0)).toBe(0);
  });

  it("members.namespaceAccessLevel - ignores memberships expired at `now` (expiry equal to now is expired)", async () => {
    const user = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    await addMember(ctx.store, { kind: "namespace", of: top }, user, AccessLevel.Owner, at(10));
    await addMember(ctx.store, { kind: "namespace", of: child }, user, AccessLevel.Guest, at(20));
    expect(await ctx.store.members.namespaceAccessLevel(user.id, child.id, at(9))).toBe(AccessLevel.Owner);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, child.id, at(10))).toBe(AccessLevel.Guest);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, child.id, at(20))).toBe(0);
  });

  it("members.namespaceAccessLevel - the owner of a user namespace counts as Owner", async () => {
    const user = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const home = await makeUserNamespace(ctx.store, user);
    expect(await ctx.store.members.namespaceAccessLevel(user.id, home.id, T0)).toBe(AccessLevel.Owner);
    expect(await ctx.store.members.namespaceAccessLevel(other.id, home.id, T0)).toBe(0);
  });

  it("members.projectAccessLevel - the highest of the direct membership and the namespace chain", async () => {
    const user = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store);
    const sub = await makeGroup(ctx.store, { parent: top });
    const project = await makeProject(ctx.store, sub);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id, T0)).toBe(0);
    await addMember(ctx.store, { kind: "project", of: project }, user, AccessLevel.Reporter);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id, T0)).toBe(AccessLevel.Reporter);
    await addMember(ctx.store, { kind: "namespace", of: top }, user, AccessLevel.Maintainer);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id, T0)).toBe(AccessLevel.Maintainer);
    await addMember(ctx.store, { kind: "namespace", of: sub }, user, AccessLevel.Guest);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id, T0)).toBe(AccessLevel.Maintainer);
  });

  it("members.projectAccessLevel - ignores expired memberships, namespace members of the same id and other projects", async () => {
    const user = await makeUser(ctx.store);
    // Decoy groups first, so that in a fresh store the project's id names a group outside its chain.
    await makeGroup(ctx.store);
    await makeGroup(ctx.store);
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const sibling = await makeProject(ctx.store, group);
    await ctx.store.members.add({ sourceType: "namespace", sourceId: project.id, userId: user.id, accessLevel: AccessLevel.Owner }, T0);
    await addMember(ctx.store, { kind: "project", of: sibling }, user, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "project", of: project }, user, AccessLevel.Developer, at(3));
    const levelAt = (minutes: number) => ctx.store.members.projectAccessLevel(user.id, project.id, at(minutes));
    const expected = project.id === group.id ? AccessLevel.Owner : AccessLevel.Developer;
    expect(await levelAt(2)).toBe(expected);
    expect(await levelAt(3)).toBe(project.id === group.id ? AccessLevel.Owner : 0);
  });

  it("members.projectAccessLevel - Owner for a project in the user's own namespace; 0 for an unknown project", async () => {
    const user = await makeUser(ctx.store);
    const home = await makeUserNamespace(ctx.store, user);
    const project = await makeProject(ctx.store, home);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id, T0)).toBe(AccessLevel.Owner);
    expect(await ctx.store.members.projectAccessLevel(user.id, project.id + 1000, T0)).toBe(0);
  });

  it("members.projectPermissionLevels - the direct membership and the group chain's level, both unexpired at `now`", async () => {
    const user = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store);
    const sub = await makeGroup(ctx.store, { parent: top });
    const project = await makeProject(ctx.store, sub);
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, sub.id, T0)).toEqual({ project: 0, group: 0 });
    await addMember(ctx.store, { kind: "project", of: project }, user, AccessLevel.Reporter, at(5));
    await addMember(ctx.store, { kind: "namespace", of: top }, user, AccessLevel.Maintainer, at(10));
    await addMember(ctx.store, { kind: "namespace", of: sub }, user, AccessLevel.Guest);
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, sub.id, T0)).toEqual({ project: AccessLevel.Reporter, group: AccessLevel.Maintainer });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, sub.id, at(4))).toEqual({ project: AccessLevel.Reporter, group: AccessLevel.Maintainer });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, sub.id, at(5))).toEqual({ project: 0, group: AccessLevel.Maintainer });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, sub.id, at(10))).toEqual({ project: 0, group: AccessLevel.Guest });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, null, T0)).toEqual({ project: AccessLevel.Reporter, group: 0 });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id, null, at(5))).toEqual({ project: 0, group: 0 });
    expect(await ctx.store.members.projectPermissionLevels(user.id, project.id + 1000, sub.id, T0)).toEqual({ project: 0, group: AccessLevel.Maintainer });
  });
}
