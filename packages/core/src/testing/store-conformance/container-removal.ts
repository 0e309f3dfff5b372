/** Conformance: ProjectRepository.remove, NamespaceRepository.removeGroup and the subtree list filters. */
import { expect, it } from "vitest";
import { AccessLevel } from "../../accounts/types.js";
import type { Store } from "../../ports/store.js";
import { T0, addMember, digest, ids, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const firstPage = { kind: "offset", page: 1, perPage: 100 } as const;
const admin = { userId: 0, admin: true };

/** A project with one of every kind of row that refers to it, and a bot of a project access token. */
async function populatedProject(store: Store, namespace: Awaited<ReturnType<typeof makeGroup>>) {
  const author = await makeUser(store);
  const project = await makeProject(store, namespace, { creator: author });
  const issue = await store.activity.issues.create({ projectId: project.id, title: "t", description: "", confidential: false, authorId: author.id }, T0);
  const snippet = await store.activity.snippets.create({ projectId: project.id, authorId: author.id, title: "s", fileName: "a.txt", content: "x", visibility: "private" }, T0);
  await store.errorTracking.settings.save(project.id, { active: true, integrated: true }, T0);
  await addMember(store, { kind: "project", of: project }, author, AccessLevel.Developer);
  await store.notificationSettings.change(author.id, { type: "project", id: project.id }, { level: "watch" }, "global", T0);
  const bot = await makeUser(store, { bot: "project_bot" });
  await addMember(store, { kind: "project", of: project }, bot, AccessLevel.Maintainer);
  const token = await store.accessTokens.create({ kind: "project", userId: bot.id, name: "bot", scopes: ["api"], digest: digest(), expiresAt: null, resourceId: project.id }, T0);
  return { author, project, issue, snippet, bot, token };
}

export function containerRemovalTests(ctx: SuiteContext): void {
  it("members.updateExpiry - sets and clears the expiry; null for an unknown id", async () => {
    const group = await makeGroup(ctx.store);
    const user = await makeUser(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: group }, user, AccessLevel.Developer);
    const member = await ctx.store.members.find("namespace", group.id, user.id);
    const expiry = new Date("2026-04-01T00:00:00.000Z");
    expect(await ctx.store.members.updateExpiry(member?.id ?? 0, expiry)).toMatchObject({ id: member?.id, expiresAt: expiry, accessLevel: AccessLevel.Developer });
    expect(await ctx.store.members.find("namespace", group.id, user.id)).toMatchObject({ expiresAt: expiry });
    expect(await ctx.store.members.updateExpiry(member?.id ?? 0, null)).toMatchObject({ expiresAt: null });
    expect(await ctx.store.members.updateExpiry(987654, null)).toBeNull();
  });


  it("namespaces.updateGroup - changes name, description and visibility; null for a user namespace or unknown id", async () => {
    const group = await makeGroup(ctx.store, { name: "Before", visibility: "private" });
    const later = new Date(T0.getTime() + 60_000);
    const updated = await ctx.store.namespaces.updateGroup(group.id, { name: "After", description: "d", visibility: "internal", updatedAt: later });
    expect(updated).toMatchObject({ id: group.id, name: "After", description: "d", visibility: "internal", path: group.path, fullPath: group.fullPath, updatedAt: later });
    expect(await ctx.store.namespaces.findById(group.id)).toEqual(updated);
    const listed = await ctx.store.namespaces.listGroups({ viewer: admin, search: "after" }, firstPage);
    expect(ids(listed.items)).toContain(group.id);
    const user = await makeUser(ctx.store);
    const personal = await ctx.store.namespaces.create({ kind: "user", path: user.username, name: user.name, parentId: null, ownerId: user.id, visibility: "private" }, T0);
    expect(await ctx.store.namespaces.updateGroup(personal?.id ?? 0, { name: "x" })).toBeNull();
    expect(await ctx.store.namespaces.updateGroup(987654, { name: "x" })).toBeNull();
  });


  it("projects.remove - removes the project and every row that refers to it, and names its repositories", async () => {
    const group = await makeGroup(ctx.store);
    const { author, project, issue, snippet, bot, token } = await populatedProject(ctx.store, group);
    const other = await makeProject(ctx.store, group);
    await addMember(ctx.store, { kind: "project", of: other }, author, AccessLevel.Reporter);

    const removed = await ctx.store.projects.remove(project.id);
    expect(removed).toEqual(
      expect.arrayContaining([
        { kind: "project", id: project.id, storage: project.repositoryStorage },
        { kind: "snippet", id: snippet.id, storage: null },
      ]),
    );
    expect(removed).toHaveLength(2);
    expect(await ctx.store.projects.findById(project.id)).toBeNull();
    expect(await ctx.store.activity.issues.findById(issue.id)).toBeNull();
    expect(await ctx.store.activity.snippets.findById(snippet.id)).toBeNull();
    expect(await ctx.store.errorTracking.settings.find(project.id)).toBeNull();
    expect(await ctx.store.members.listBySource("project", project.id)).toEqual([]);
    expect(await ctx.store.notificationSettings.find(author.id, { type: "project", id: project.id })).toBeNull();
    expect(await ctx.store.users.findById(bot.id)).toBeNull();
    expect(await ctx.store.accessTokens.findById(token.id)).toBeNull();
    // What belongs to others stays, and the path is free again.
    expect(await ctx.store.users.findById(author.id)).not.toBeNull();
    expect(await ctx.store.members.find("project", other.id, author.id)).not.toBeNull();
    expect(await makeProject(ctx.store, group, { path: project.path })).toMatchObject({ fullPath: project.fullPath });
  });

  it("projects.remove - null for an unknown project", async () => {
    expect(await ctx.store.projects.remove(987654)).toBeNull();
  });

  it("projects.remove - inside a transaction that rolls back, nothing is removed", async () => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.projects.remove(project.id);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await ctx.store.projects.findById(project.id)).not.toBeNull();
  });

  it("namespaces.removeGroup - removes subgroups at any depth, their projects, memberships and group bots; others stay", async () => {
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    const grandchild = await makeGroup(ctx.store, { parent: child });
    const sibling = await makeGroup(ctx.store);
    const member = await makeUser(ctx.store);
    await addMember(ctx.store, { kind: "namespace", of: top }, member, AccessLevel.Owner);
    await addMember(ctx.store, { kind: "namespace", of: sibling }, member, AccessLevel.Owner);
    await ctx.store.notificationSettings.change(member.id, { type: "group", id: child.id }, { level: "watch" }, "global", T0);
    const inTop = await makeProject(ctx.store, top);
    const { project: deep, snippet } = await populatedProject(ctx.store, grandchild);
    const kept = await makeProject(ctx.store, sibling);
    const bot = await makeUser(ctx.store, { bot: "group_bot" });
    await addMember(ctx.store, { kind: "namespace", of: child }, bot, AccessLevel.Developer);
    await ctx.store.accessTokens.create({ kind: "group", userId: bot.id, name: "bot", scopes: ["api"], digest: digest(), expiresAt: null, resourceId: child.id }, T0);

    const removed = await ctx.store.namespaces.removeGroup(top.id);
    expect((removed ?? []).map((r) => `${r.kind}:${r.id}`).sort()).toEqual(
      [`project:${inTop.id}`, `project:${deep.id}`, `snippet:${snippet.id}`, `group-wiki:${top.id}`, `group-wiki:${child.id}`, `group-wiki:${grandchild.id}`].sort(),
    );
    for (const id of [top.id, child.id, grandchild.id]) expect(await ctx.store.namespaces.findById(id)).toBeNull();
    for (const id of [inTop.id, deep.id]) expect(await ctx.store.projects.findById(id)).toBeNull();
    expect(await ctx.store.members.find("namespace", top.id, member.id)).toBeNull();
    expect(await ctx.store.notificationSettings.find(member.id, { type: "group", id: child.id })).toBeNull();
    expect(await ctx.store.users.findById(bot.id)).toBeNull();
    expect(await ctx.store.namespaces.findById(sibling.id)).not.toBeNull();
    expect(await ctx.store.projects.findById(kept.id)).not.toBeNull();
    expect(await ctx.store.members.find("namespace", sibling.id, member.id)).not.toBeNull();
    expect(await ctx.store.namespaces.findByFullPath(top.fullPath)).toBeNull();
    expect(await makeGroup(ctx.store, { path: top.path })).toMatchObject({ fullPath: top.fullPath });
  });

  it("namespaces.removeGroup - null for an unknown id or a user namespace", async () => {
    const user = await makeUser(ctx.store);
    const personal = await ctx.store.namespaces.create({ kind: "user", path: user.username, name: user.name, parentId: null, ownerId: user.id, visibility: "private" }, T0);
    expect(await ctx.store.namespaces.removeGroup(987654)).toBeNull();
    expect(await ctx.store.namespaces.removeGroup(personal?.id ?? 0)).toBeNull();
    expect(await ctx.store.namespaces.findById(personal?.id ?? 0)).not.toBeNull();
  });

  it("namespaces.listGroups - ancestorId lists descendants at any depth, not the group itself", async () => {
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    const grandchild = await makeGroup(ctx.store, { parent: child });
    await makeGroup(ctx.store);
    const listed = await ctx.store.namespaces.listGroups({ viewer: admin, ancestorId: top.id, orderBy: "id" }, firstPage);
    expect(ids(listed.items)).toEqual([child.id, grandchild.id]);
    const below = await ctx.store.namespaces.listGroups({ viewer: admin, ancestorId: child.id, orderBy: "id" }, firstPage);
    expect(ids(below.items)).toEqual([grandchild.id]);
  });

  it("projects.list - includeSubgroups adds the projects of descendant groups", async () => {
    const top = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent: top });
    const other = await makeGroup(ctx.store);
    const a = await makeProject(ctx.store, top);
    const b = await makeProject(ctx.store, child);
    await makeProject(ctx.store, other);
    const direct = await ctx.store.projects.list({ viewer: admin, namespaceId: top.id, orderBy: "id", sort: "asc" }, firstPage);
    expect(ids(direct.items)).toEqual([a.id]);
    const all = await ctx.store.projects.list({ viewer: admin, namespaceId: top.id, includeSubgroups: true, orderBy: "id", sort: "asc" }, firstPage);
    expect(ids(all.items)).toEqual([a.id, b.id]);
  });
}
