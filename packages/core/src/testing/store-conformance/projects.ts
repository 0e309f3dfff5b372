/** Conformance: ProjectRepository create, lookups and update. */
import { expect, it } from "vitest";
import { DEFAULT_PROJECT_FEATURES } from "../../accounts/project-features.js";
import { DEFAULT_MERGE_CHECKS } from "../../accounts/merge-checks.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

export function projectTests(ctx: SuiteContext): void {
  it("projects.create - returns the project with its full path and defaults", async () => {
    const creator = await makeUser(ctx.store);
    const top = await makeGroup(ctx.store, { path: "Org" });
    const sub = await makeGroup(ctx.store, { path: "team", parent: top });
    const project = await ctx.store.projects.create({ namespaceId: sub.id, path: "App", name: "The App", visibility: "internal", creatorId: creator.id }, T0);
    expect(project).toEqual({
      id: expect.any(Number),
      namespaceId: sub.id,
      path: "App",
      name: "The App",
      fullPath: "Org/team/App",
      description: "",
      visibility: "internal",
      creatorId: creator.id,
      repositoryStorage: "default",
      repositoryReadOnly: false,
      defaultBranch: null,
      repositoryEmpty: true,
      readmePath: false,
      features: DEFAULT_PROJECT_FEATURES,
      mergeChecks: DEFAULT_MERGE_CHECKS,
      createdAt: T0,
      updatedAt: T0,
      lastActivityAt: T0,
    });
  });

  it("projects.create - stores the optional description, storage and default branch", async () => {
    const group = await makeGroup(ctx.store);
    const project = await ctx.store.projects.create(
      { namespaceId: group.id, path: "p", name: "p", visibility: "public", creatorId: null, description: "Hello", repositoryStorage: "shard-2", defaultBranch: "main" },
      T0,
    );
    expect(project).toMatchObject({ description: "Hello", repositoryStorage: "shard-2", defaultBranch: "main", creatorId: null });
    expect(await ctx.store.projects.findById(project!.id)).toEqual(project);
  });

  it("projects.create - returns null when namespace/path is taken case-insensitively", async () => {
    const group = await makeGroup(ctx.store, { path: "grp" });
    const first = await makeProject(ctx.store, group, { path: "Repo" });
    expect(await ctx.store.projects.create({ namespaceId: group.id, path: "rEPO", name: "x", visibility: "private", creatorId: null }, T0)).toBeNull();
    expect(await ctx.store.projects.findByFullPath("GRP/repo")).toEqual(first);
  });

  it("projects.create - the same path may be used in different namespaces", async () => {
    const a = await makeGroup(ctx.store);
    const b = await makeGroup(ctx.store);
    const inA = await makeProject(ctx.store, a, { path: "same" });
    const inB = await makeProject(ctx.store, b, { path: "same" });
    expect(inA.id).not.toBe(inB.id);
    expect(inB.fullPath).toBe(`${b.fullPath}/same`);
  });

  it("projects.findById - returns the project, or null when unknown", async () => {
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    expect(await ctx.store.projects.findById(project.id)).toEqual(project);
    expect(await ctx.store.projects.findById(project.id + 1000)).toBeNull();
  });

  it("projects.findByFullPath - matches the whole full path case-insensitively, null otherwise", async () => {
    const top = await makeGroup(ctx.store, { path: "Top" });
    const sub = await makeGroup(ctx.store, { path: "Sub", parent: top });
    const project = await makeProject(ctx.store, sub, { path: "Proj" });
    expect(await ctx.store.projects.findByFullPath("top/sub/proj")).toEqual(project);
    expect(await ctx.store.projects.findByFullPath("top/proj")).toBeNull();
    expect(await ctx.store.projects.findByFullPath("Proj")).toBeNull();
  });

  it("projects.update - applies the patch, returns the updated row and leaves other fields untouched", async () => {
    const project = await makeProject(ctx.store, await makeGroup(ctx.store), { name: "Before" });
    const patch = {
      name: "After",
      description: "new",
      visibility: "public" as const,
      repositoryStorage: "other",
      repositoryReadOnly: true,
      defaultBranch: "trunk",
      lastActivityAt: at(30),
      updatedAt: at(31),
    };
    const updated = await ctx.store.projects.update(project.id, patch);
    expect(updated).toEqual({ ...project, ...patch });
    expect(await ctx.store.projects.findById(project.id)).toEqual(updated);
    expect(await ctx.store.projects.update(project.id, { defaultBranch: null })).toEqual({ ...project, ...patch, defaultBranch: null });
  });

  it("projects.update - returns null for an unknown id", async () => {
    expect(await ctx.store.projects.update(9999, { name: "x" })).toBeNull();
  });

  it("projects.update - a renamed project is found by its new name in search", async () => {
    const group = await makeGroup(ctx.store, { visibility: "public" });
    const project = await makeProject(ctx.store, group, { name: "Old Name", visibility: "public" });
    await ctx.store.projects.update(project.id, { name: "Fresh Label" });
    const page = await ctx.store.projects.list({ viewer: null, search: "fresh" }, { kind: "offset", page: 1, perPage: 20 });
    expect(page.items.map((p) => p.id)).toEqual([project.id]);
    const old = await ctx.store.projects.list({ viewer: null, search: "old" }, { kind: "offset", page: 1, perPage: 20 });
    expect(old.items).toEqual([]);
  });
}
