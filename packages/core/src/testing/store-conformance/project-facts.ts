/**
 * Conformance: what the project entity reads besides the project's own fields (issue 19 §1) —
 * stored feature levels, `repositoryEmpty` and `readmePath`, and the page-wide reads `issues.countOpened`,
 * `members.projectAccessLevels` and `imports.projects.statuses`.
 */
import { expect, it } from "vitest";
import { DEFAULT_PROJECT_FEATURES } from "../../accounts/project-features.js";
import { AccessLevel } from "../../accounts/types.js";
import { T0, addMember, at, makeGroup, makeProject, makeUser, makeUserNamespace, type SuiteContext } from "./context.js";

export function projectFactTests(ctx: SuiteContext): void {
  it("projects.create - features all enabled and repositoryEmpty true by default; given ones are stored", async () => {
    const group = await makeGroup(ctx.store);
    const plain = await makeProject(ctx.store, group);
    expect([plain.features, plain.repositoryEmpty, plain.readmePath]).toEqual([DEFAULT_PROJECT_FEATURES, true, false]);
    const features = { issues: "private", mergeRequests: "disabled", repository: "private", snippets: "enabled" } as const;
    const made = await ctx.store.projects.create({ namespaceId: group.id, path: "featured", name: "featured", visibility: "public", creatorId: null, features, repositoryEmpty: false, readmePath: "README.md" }, T0);
    expect([made?.features, made?.repositoryEmpty, made?.readmePath]).toEqual([features, false, "README.md"]);
    expect(await ctx.store.projects.findById(made!.id)).toEqual(made);
  });

  it("projects.update - sets the features given and keeps the others; sets repositoryEmpty", async () => {
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    const updated = await ctx.store.projects.update(project.id, { features: { issues: "disabled", snippets: "private" }, repositoryEmpty: false });
    const expected = { ...DEFAULT_PROJECT_FEATURES, issues: "disabled", snippets: "private" };
    expect([updated?.features, updated?.repositoryEmpty]).toEqual([expected, false]);
    const found = await ctx.store.projects.findById(project.id);
    expect([found?.features, found?.repositoryEmpty]).toEqual([expected, false]);
    const listed = await ctx.store.projects.list({ viewer: { userId: 0, admin: true }, now: T0, orderBy: "id", sort: "asc", namespaceId: project.namespaceId }, { kind: "offset", page: 1, perPage: 20 });
    expect(listed.items.map((p) => [p.features, p.repositoryEmpty])).toEqual([[expected, false]]);
  });

  it("projects.update - readmePath: a path, false (none) and null (not known) are kept apart", async () => {
    const project = await makeProject(ctx.store, await makeGroup(ctx.store));
    for (const readmePath of ["README.md", null, false, "readme"] as const) {
      expect((await ctx.store.projects.update(project.id, { readmePath }))?.readmePath).toBe(readmePath);
      expect((await ctx.store.projects.findById(project.id))?.readmePath).toBe(readmePath);
    }
  });

  it("activity.issues.countOpened - opened issues per project; projects without any and closed issues are not counted", async () => {
    const author = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const [a, b, none] = [await makeProject(ctx.store, group), await makeProject(ctx.store, group), await makeProject(ctx.store, group)];
    const issue = (projectId: number) => ctx.store.activity.issues.create({ projectId, title: "t", description: "", confidential: false, authorId: author.id }, T0);
    await issue(a.id);
    await issue(a.id);
    const closed = await issue(b.id);
    await issue(b.id);
    await ctx.store.activity.issues.update(closed.id, { state: "closed", closedAt: T0 });
    expect(await ctx.store.activity.issues.countOpened([a.id, b.id, none.id])).toEqual(new Map([[a.id, 2], [b.id, 1]]));
    expect(await ctx.store.activity.issues.countOpened([])).toEqual(new Map());
  });

  it("members.projectAccessLevels - the highest unexpired level per project (direct, via groups, own namespace), as projectAccessLevel", async () => {
    const user = await makeUser(ctx.store);
    const parent = await makeGroup(ctx.store);
    const child = await makeGroup(ctx.store, { parent });
    const [direct, inherited, expired, mixed, none] = [
      await makeProject(ctx.store, parent),
      await makeProject(ctx.store, child),
      await makeProject(ctx.store, await makeGroup(ctx.store)),
      await makeProject(ctx.store, child),
      await makeProject(ctx.store, await makeGroup(ctx.store)),
    ];
    const own = await makeProject(ctx.store, await makeUserNamespace(ctx.store, user));
    await addMember(ctx.store, { kind: "project", of: direct }, user, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "namespace", of: parent }, user, AccessLevel.Reporter);
    await addMember(ctx.store, { kind: "project", of: expired }, user, AccessLevel.Maintainer, at(-1));
    await addMember(ctx.store, { kind: "project", of: mixed }, user, AccessLevel.Developer);
    const projects = [direct, inherited, expired, mixed, none, own];
    const levels = await ctx.store.members.projectAccessLevels(user.id, projects.map((p) => p.id), T0);
    expect(levels).toEqual(new Map([[direct.id, AccessLevel.Reporter], [inherited.id, AccessLevel.Reporter], [mixed.id, AccessLevel.Developer], [own.id, AccessLevel.Owner]]));
    for (const project of projects) expect([project.id, levels.get(project.id) ?? 0]).toEqual([project.id, await ctx.store.members.projectAccessLevel(user.id, project.id, T0)]);
    expect(await ctx.store.members.projectAccessLevels(user.id, [], T0)).toEqual(new Map());
  });

  it("imports.projects.statuses - the status of each imported project; others absent", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const [scheduled, failed, none] = [await makeProject(ctx.store, group), await makeProject(ctx.store, group), await makeProject(ctx.store, group)];
    const create = (projectId: number) => ctx.store.imports.projects.create({ projectId, source: "extforge", importSource: "o/r", url: "https://forge.example", userId: user.id, options: "{}", credentials: null }, T0);
    await create(scheduled.id);
    await create(failed.id);
    await ctx.store.imports.projects.update(failed.id, ["scheduled"], { status: "failed", error: "boom" }, T0);
    expect(await ctx.store.imports.projects.statuses([scheduled.id, failed.id, none.id])).toEqual(new Map([[scheduled.id, "scheduled"], [failed.id, "failed"]]));
    expect(await ctx.store.imports.projects.statuses([])).toEqual(new Map());
  });
}
