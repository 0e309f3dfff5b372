import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { AccessLevel } from "./types.js";

describe("groups service", () => {
  it("creates a subgroup with its full path and makes the owner an Owner", async () => {
    const { fk, store, groups, users } = await createTestForgekit();
    const child = (await fk.groups.create({ name: "Child", path: "child", parentId: groups.grp.id, visibility: "public", ownerId: users.bob.id }))._unsafeUnwrap();
    expect(child).toMatchObject({ kind: "group", fullPath: "grp/child", parentId: groups.grp.id, visibility: "public" });
    expect((await store.members.find("namespace", child.id, users.bob.id))?.accessLevel).toBe(AccessLevel.Owner);
    expect((await fk.groups.ancestors(child.id))._unsafeUnwrap().map((g) => g.path)).toEqual(["grp"]);
  });

  it("defaults to private; never more open than the parent", async () => {
    const { fk, groups } = await createTestForgekit();
    expect((await fk.groups.create({ name: "Quiet", path: "quiet" }))._unsafeUnwrap().visibility).toBe("private");
    expect((await fk.groups.create({ name: "Loud", path: "loud", parentId: groups.sub.id, visibility: "internal" }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { visibility_level: ["internal is not allowed since the parent group has a private visibility."] },
    });
  });

  it("validates path, name, parent and uniqueness; failures leave nothing behind", async () => {
    const { fk, store, users } = await createTestForgekit();
    expect((await fk.groups.create({ name: "", path: "x.git" }))._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { name: ["can't be blank"], path: [expect.stringContaining("can contain only")] } });
    expect((await fk.groups.create({ name: "Orphan", path: "orphan", parentId: 9999 }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Parent Group" });
    expect((await fk.groups.create({ name: "Dup", path: "GRP" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { path: ["has already been taken"] } });
    expect((await fk.groups.create({ name: "Ghost", path: "ghost", ownerId: 9999 }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    expect(await store.namespaces.findByFullPath("ghost")).toBeNull();
    expect(users.alice.namespaceId).not.toBeNull();
  });

  it("lookups: by id or full path; user namespaces are not groups", async () => {
    const { fk, groups, users } = await createTestForgekit();
    expect((await fk.groups.findByIdOrPath("grp/sub"))._unsafeUnwrap().id).toBe(groups.sub.id);
    expect((await fk.groups.findByIdOrPath(String(groups.grp.id)))._unsafeUnwrap().path).toBe("grp");
    expect((await fk.groups.findById(users.alice.namespaceId ?? -1))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
  });
});

describe("projects service", () => {
  it("creates in a group or a user namespace; path derived from the name", async () => {
    const { fk, groups, users } = await createTestForgekit();
    const p = (await fk.projects.create({ namespaceId: groups.grp.id, name: "My Project!", visibility: "public" }))._unsafeUnwrap();
    expect(p).toMatchObject({ path: "my-project", fullPath: "grp/my-project", repositoryStorage: "default", repositoryReadOnly: false });
    const mine = (await fk.projects.create({ namespaceId: users.bob.namespaceId ?? -1, name: "mine", path: "mine", visibility: "public" }))._unsafeUnwrap();
    expect(mine.fullPath).toBe("bob/mine");
  });

  it("refuses a project more open than its group", async () => {
    const { fk, groups } = await createTestForgekit();
    expect((await fk.projects.create({ namespaceId: groups.sub.id, name: "leak", visibility: "public" }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { visibility_level: ["public is not allowed in a private group."] },
    });
  });

  it("validates storage, namespace and uniqueness", async () => {
    const { fk, groups } = await createTestForgekit();
    expect((await fk.projects.create({ namespaceId: groups.grp.id, name: "x", repositoryStorage: "nowhere" }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { repository_storage: ["is not included in the list"] },
    });
    expect((await fk.projects.create({ namespaceId: 9999, name: "x" }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Namespace" });
    expect((await fk.projects.create({ namespaceId: groups.grp.id, name: "again", path: "PUBLIC-project" }))._unsafeUnwrapErr()).toEqual({
      code: "validation",
      messages: { path: ["has already been taken"] },
    });
  });

  it("read-only flag at creation and later", async () => {
    const { fk, groups } = await createTestForgekit({ repositoryStorages: ["a", "b"] });
    const p = (await fk.projects.create({ namespaceId: groups.grp.id, name: "ro", repositoryReadOnly: true }))._unsafeUnwrap();
    expect(p).toMatchObject({ repositoryReadOnly: true, repositoryStorage: "a" });
    expect((await fk.projects.setReadOnly(p.id, false))._unsafeUnwrap().repositoryReadOnly).toBe(false);
  });

  it("findByIdOrPath: id, full path, and nothing for a bare name", async () => {
    const { fk, projects } = await createTestForgekit();
    expect((await fk.projects.findByIdOrPath("GRP/Public-Project"))._unsafeUnwrap().id).toBe(projects.publicProject.id);
    expect((await fk.projects.findByIdOrPath(projects.hidden.id))._unsafeUnwrap().path).toBe("hidden");
    expect((await fk.projects.findByIdOrPath("public-project"))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
  });
});

describe("members service", () => {
  it("adds, updates and removes memberships at Guest … Owner", async () => {
    const { fk, projects, users } = await createTestForgekit();
    const target = { sourceType: "project" as const, sourceId: projects.publicProject.id };
    const m = (await fk.members.add({ ...target, userId: users.bob.id, accessLevel: AccessLevel.Guest }))._unsafeUnwrap();
    expect(m.accessLevel).toBe(10);
    expect((await fk.members.add({ ...target, userId: users.bob.id, accessLevel: 30 }))._unsafeUnwrapErr()).toEqual({ code: "conflict", reason: "Member already exists" });
    expect((await fk.members.update(target, users.bob.id, 40))._unsafeUnwrap().accessLevel).toBe(40);
    expect((await fk.members.update(target, users.bob.id, 45))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { access_level: ["is not included in the list"] } });
    expect((await fk.members.list(target))._unsafeUnwrap().map((x) => x.userId)).toEqual([users.bob.id]);
    (await fk.members.remove(target, users.bob.id))._unsafeUnwrap();
    expect((await fk.members.remove(target, users.bob.id))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Member" });
  });

  it("refuses unknown sources, users and levels", async () => {
    const { fk, users, groups } = await createTestForgekit();
    expect((await fk.members.add({ sourceType: "namespace", sourceId: users.alice.namespaceId ?? -1, userId: users.bob.id, accessLevel: 10 }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
    expect((await fk.members.add({ sourceType: "project", sourceId: 9999, userId: users.bob.id, accessLevel: 10 }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await fk.members.add({ sourceType: "namespace", sourceId: groups.grp.id, userId: 9999, accessLevel: 10 }))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "User" });
    expect((await fk.members.add({ sourceType: "namespace", sourceId: groups.grp.id, userId: users.bob.id, accessLevel: 60 }))._unsafeUnwrapErr()).toMatchObject({ code: "validation" });
  });
});
