/** Conformance: ProtectedRefRepository. */
import { expect, it } from "vitest";
import type { NewProtectedRef } from "../../ports/protected-refs-store.js";
import type { ProtectedRef } from "../../protected-refs/types.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

export function protectedRefTests(ctx: SuiteContext): void {
  const refs = () => ctx.store.protectedRefs;
  const project = async () => makeProject(ctx.store, await makeGroup(ctx.store));
  const create = async (input: NewProtectedRef, now = T0): Promise<ProtectedRef> => {
    const created = await refs().create(input, now);
    if (created === null) throw new Error(`fixture rule ${input.name} was refused`);
    return created;
  };
  const rule = (projectId: number, name: string, kind: "branch" | "tag" = "branch"): NewProtectedRef => ({
    projectId,
    kind,
    name,
    accessLevels: kind === "branch" ? [{ action: "push", accessLevel: 40 }, { action: "merge", accessLevel: 30 }] : [{ action: "create", accessLevel: 0 }],
  });

  it("protectedRefs.create - returns the stored rule with its access rows in order, defaults false", async () => {
    const p = await project();
    const created = await create(rule(p.id, "release/*"));
    expect(created).toEqual({
      id: expect.any(Number),
      projectId: p.id,
      kind: "branch",
      name: "release/*",
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
      accessLevels: [
        { id: expect.any(Number), action: "push", accessLevel: 40, userId: null, groupId: null },
        { id: expect.any(Number), action: "merge", accessLevel: 30, userId: null, groupId: null },
      ],
      createdAt: T0,
    });
    expect(created.accessLevels[0]?.id).toBeLessThan(created.accessLevels[1]?.id ?? 0);
    expect(await refs().find(p.id, "branch", "release/*")).toEqual(created);
  });

  it("protectedRefs.create - keeps user and group rows and the flags", async () => {
    const p = await project();
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const created = await create({
      projectId: p.id,
      kind: "branch",
      name: "main",
      allowForcePush: true,
      codeOwnerApprovalRequired: true,
      accessLevels: [{ action: "push", accessLevel: 40, userId: user.id }, { action: "merge", accessLevel: 40, groupId: group.id }],
    });
    expect(created).toMatchObject({ allowForcePush: true, codeOwnerApprovalRequired: true });
    expect(created.accessLevels.map((a) => [a.action, a.userId, a.groupId])).toEqual([["push", user.id, null], ["merge", null, group.id]]);
  });

  it("protectedRefs.create - null for a name the project already protects as that kind, case-sensitively", async () => {
    const p = await project();
    const other = await project();
    await create(rule(p.id, "main"));
    expect(await refs().create(rule(p.id, "main"), at(1))).toBeNull();
    expect(await refs().create(rule(p.id, "Main"), at(1))).not.toBeNull();
    expect(await refs().create(rule(p.id, "main", "tag"), at(1))).not.toBeNull();
    expect(await refs().create(rule(other.id, "main"), at(1))).not.toBeNull();
    expect((await refs().list(p.id, "branch")).map((r) => r.name)).toEqual(["main", "Main"]);
  });

  it("protectedRefs.find - null for an unknown name, another kind or another project", async () => {
    const p = await project();
    await create(rule(p.id, "v*", "tag"));
    expect(await refs().find(p.id, "tag", "v1")).toBeNull();
    expect(await refs().find(p.id, "branch", "v*")).toBeNull();
    expect(await refs().find(p.id + 1000, "tag", "v*")).toBeNull();
  });

  it("protectedRefs.list - the project's rules of one kind by id", async () => {
    const p = await project();
    const b = await create(rule(p.id, "b"));
    const a = await create(rule(p.id, "a"));
    await create(rule(p.id, "v*", "tag"));
    expect((await refs().list(p.id, "branch")).map((r) => r.id)).toEqual([b.id, a.id]);
    expect((await refs().list(p.id, "tag")).map((r) => r.name)).toEqual(["v*"]);
    expect(await refs().list(p.id + 1000, "branch")).toEqual([]);
  });

  it("protectedRefs.update - changes the flags given and keeps the rest", async () => {
    const p = await project();
    const created = await create(rule(p.id, "main"));
    const updated = await refs().update(created.id, { allowForcePush: true });
    expect(updated).toEqual({ ...created, allowForcePush: true });
    expect(await refs().update(created.id, { codeOwnerApprovalRequired: true })).toEqual({ ...created, allowForcePush: true, codeOwnerApprovalRequired: true });
    expect(await refs().update(created.id + 1000, { allowForcePush: true })).toBeNull();
  });

  it("protectedRefs.remove - deletes the rule once; the name can be protected again", async () => {
    const p = await project();
    const created = await create(rule(p.id, "main"));
    expect(await refs().remove(created.id)).toBe(true);
    expect(await refs().remove(created.id)).toBe(false);
    expect(await refs().find(p.id, "branch", "main")).toBeNull();
    expect(await refs().create(rule(p.id, "main"), at(1))).not.toBeNull();
  });

  it("protectedRefs - go with their project; rows naming a removed user or group go with them", async () => {
    const p = await project();
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const kept = await create({ projectId: p.id, kind: "branch", name: "main", accessLevels: [{ action: "push", accessLevel: 40 }, { action: "push", accessLevel: 40, userId: user.id }, { action: "merge", accessLevel: 40, groupId: group.id }] });
    expect(await ctx.store.users.remove(user.id)).toBe(true);
    expect(await ctx.store.namespaces.removeGroup(group.id)).not.toBeNull();
    expect((await refs().find(p.id, "branch", "main"))?.accessLevels).toEqual([kept.accessLevels[0]]);
    expect(await ctx.store.projects.remove(p.id)).not.toBeNull();
    expect(await refs().list(p.id, "branch")).toEqual([]);
  });

  it("protectedRefs - a rolled-back transaction leaves no rule", async () => {
    const p = await project();
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.protectedRefs.create(rule(p.id, "main"), T0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await refs().list(p.id, "branch")).toEqual([]);
  });
}
