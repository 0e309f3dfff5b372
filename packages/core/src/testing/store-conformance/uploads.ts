/** Conformance: `uploads` (records of project Markdown uploads). */
import { expect, it } from "vitest";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const SECRET = "0123456789abcdef0123456789abcdef";

export function uploadTests(ctx: SuiteContext): void {
  it("uploads - create, find by id or path within the project, list newest first, remove once", async () => {
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const other = await makeProject(ctx.store, group);
    const user = await makeUser(ctx.store);
    const repo = ctx.store.uploads;
    const a = await repo.create({ projectId: project.id, secret: SECRET, filename: "a.png", size: 3_000_000_000, uploaderId: user.id, createdAt: T0 });
    expect(a).toEqual({ id: a.id, projectId: project.id, secret: SECRET, filename: "a.png", size: 3_000_000_000, uploaderId: user.id, createdAt: T0 });
    const b = await repo.create({ projectId: project.id, secret: SECRET, filename: "b.txt", size: 1, uploaderId: null, createdAt: at(1) });
    expect(await repo.find(project.id, a.id)).toEqual(a);
    expect(await repo.find(other.id, a.id)).toBeNull();
    expect(await repo.findByPath(project.id, SECRET, "b.txt")).toEqual(b);
    expect(await repo.findByPath(other.id, SECRET, "b.txt")).toBeNull();
    expect((await repo.list(project.id, { kind: "offset", page: 1, perPage: 20 })).items.map((u) => u.filename)).toEqual(["b.txt", "a.png"]);
    expect(await repo.remove(other.id, a.id)).toBe(false);
    expect(await repo.remove(project.id, a.id)).toBe(true);
    expect(await repo.remove(project.id, a.id)).toBe(false);
    expect(await ctx.store.users.remove(user.id)).toBe(true);
    await ctx.store.projects.remove(project.id);
    expect(await repo.find(project.id, b.id)).toBeNull();
  });
}
