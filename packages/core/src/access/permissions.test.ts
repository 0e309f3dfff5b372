import { describe, expect, it } from "vitest";
import { createTestForgekit } from "../testing/fixtures.js";
import { AccessLevel } from "../accounts/types.js";
import { canAdminGroup, canAdminProject, canReadGroup, canReadProject, groupAccess, hasProjectAccess, projectAccess, visibleGroup, visibleProject } from "./permissions.js";
import { tierAllows } from "./tier.js";

describe("permissions", () => {
  it("project visibility matrix: anonymous / user / member / admin", async () => {
    const t = await createTestForgekit();
    const carol = await t.createUser({ username: "carol" });
    const now = t.clock.now();
    const { publicProject, internalProject, privateProject } = t.projects;
    const read = (user: typeof carol | null, p: typeof publicProject) => canReadProject(t.store, user, p, now);
    expect([await read(null, publicProject), await read(null, internalProject), await read(null, privateProject)]).toEqual([true, false, false]);
    expect([await read(carol, publicProject), await read(carol, internalProject), await read(carol, privateProject)]).toEqual([true, true, false]);
    expect(await read(t.users.bob, privateProject)).toBe(true);
    expect(await read(t.users.root, t.projects.hidden)).toBe(true);
  });

  it("expired memberships do not count", async () => {
    const t = await createTestForgekit();
    const carol = await t.createUser({ username: "carol" });
    (await t.fk.members.add({ sourceType: "project", sourceId: t.projects.hidden.id, userId: carol.id, accessLevel: 30, expiresAt: new Date("2024-05-02T00:00:00Z") }))._unsafeUnwrap();
    expect(await canReadProject(t.store, carol, t.projects.hidden, new Date("2024-05-01T12:00:00Z"))).toBe(true);
    expect(await canReadProject(t.store, carol, t.projects.hidden, new Date("2024-05-03T00:00:00Z"))).toBe(false);
  });

  it("effective levels: direct, inherited through groups, owner of a user namespace", async () => {
    const t = await createTestForgekit();
    const now = t.clock.now();
    expect(await projectAccess(t.store, t.users.bob, t.projects.internalProject, now)).toBe(AccessLevel.Reporter);
    expect(await projectAccess(t.store, t.users.alice, t.projects.privateProject, now)).toBe(AccessLevel.Owner);
    expect(await projectAccess(t.store, t.users.alice, t.projects.personal, now)).toBe(AccessLevel.Owner);
    expect(await projectAccess(t.store, null, t.projects.publicProject, now)).toBe(0);
    expect(await groupAccess(t.store, t.users.bob, t.groups.sub, now)).toBe(AccessLevel.Developer);
    expect(await groupAccess(t.store, t.users.bob, t.groups.grp, now)).toBe(0);
  });

  it("admin and level predicates", async () => {
    const t = await createTestForgekit();
    const now = t.clock.now();
    expect(await canAdminProject(t.store, t.users.bob, t.projects.privateProject, now)).toBe(false);
    expect(await canAdminProject(t.store, t.users.alice, t.projects.privateProject, now)).toBe(true);
    expect(await canAdminProject(t.store, t.users.root, t.projects.privateProject, now)).toBe(true);
    expect(await canAdminProject(t.store, null, t.projects.publicProject, now)).toBe(false);
    expect(await canAdminGroup(t.store, t.users.bob, t.groups.sub, now)).toBe(false);
    expect(await canAdminGroup(t.store, t.users.alice, t.groups.sub, now)).toBe(true);
    expect(await hasProjectAccess(t.store, t.users.bob, t.projects.privateProject, AccessLevel.Developer, now)).toBe(true);
    expect(await hasProjectAccess(t.store, t.users.bob, t.projects.privateProject, AccessLevel.Maintainer, now)).toBe(false);
  });

  it("group visibility: private groups only for members (also of subgroups) and admins", async () => {
    const t = await createTestForgekit();
    const now = t.clock.now();
    expect(await canReadGroup(t.store, null, t.groups.grp, now)).toBe(true);
    expect(await canReadGroup(t.store, null, t.groups.sub, now)).toBe(false);
    expect(await canReadGroup(t.store, t.users.bob, t.groups.sub, now)).toBe(true);
    expect(await canReadGroup(t.store, t.users.bob, t.groups.secret, now)).toBe(false);
    expect(await canReadGroup(t.store, t.users.root, t.groups.secret, now)).toBe(true);
  });

  it("invisible → not_found, never forbidden", async () => {
    const t = await createTestForgekit();
    const now = t.clock.now();
    expect((await visibleProject(t.store, null, t.projects.hidden, now))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await visibleProject(t.store, null, null, now))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Project" });
    expect((await visibleGroup(t.store, t.users.bob, t.groups.secret, now))._unsafeUnwrapErr()).toEqual({ code: "not_found", thing: "Group" });
    expect((await visibleGroup(t.store, t.users.bob, t.groups.sub, now))._unsafeUnwrap().id).toBe(t.groups.sub.id);
  });
});

describe("tierAllows", () => {
  it("orders free < premium < ultimate", () => {
    expect(tierAllows("free", "free")).toBe(true);
    expect(tierAllows("free", "premium")).toBe(false);
    expect(tierAllows("premium", "premium")).toBe(true);
    expect(tierAllows("premium", "ultimate")).toBe(false);
    expect(tierAllows("ultimate", "premium")).toBe(true);
  });
});
