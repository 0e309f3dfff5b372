/** Conformance: project imports (ProjectImportRepository, ExternalIdRepository, LabelRepository) and kept iids. */
import { expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

export function importTests(ctx: SuiteContext): void {
  const project = async (): Promise<Project> => makeProject(ctx.store, await makeGroup(ctx.store));
  const scheduled = async (p: Project, userId: number) =>
    ctx.store.imports.projects.create({ projectId: p.id, source: "extforge", importSource: "octo/hello", url: "https://api.github.com", userId, options: '{"repoId":1}', credentials: "sealed-token" }, T0);

  it("imports.projects.create - a scheduled import with empty stats; a second one for the project is refused", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    const created = await scheduled(p, user.id);
    expect(created).toEqual({
      projectId: p.id,
      source: "extforge",
      importSource: "octo/hello",
      url: "https://api.github.com",
      status: "scheduled",
      error: null,
      jobId: null,
      userId: user.id,
      options: '{"repoId":1}',
      credentials: "sealed-token",
      stats: "{}",
      checkpoint: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await ctx.store.imports.projects.find(p.id)).toEqual(created);
    expect(await scheduled(p, user.id)).toBeNull();
    expect(await ctx.store.imports.projects.find(p.id + 1000)).toBeNull();
  });

  it("imports.projects.update - applies the patch only from the given statuses (compare-and-set)", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    await scheduled(p, user.id);
    const started = await ctx.store.imports.projects.update(p.id, ["scheduled"], { status: "started", jobId: 7, stats: '{"issue":{"fetched":2,"imported":1}}', checkpoint: '{"stage":"issues","page":2}' }, at(1));
    expect(started).toMatchObject({ status: "started", jobId: 7, stats: '{"issue":{"fetched":2,"imported":1}}', checkpoint: '{"stage":"issues","page":2}', updatedAt: at(1), createdAt: T0 });
    expect(await ctx.store.imports.projects.update(p.id, ["scheduled"], { status: "canceled" }, at(2))).toBeNull();
    const failed = await ctx.store.imports.projects.update(p.id, ["scheduled", "started"], { status: "failed", error: "boom", credentials: null }, at(3));
    expect(failed).toMatchObject({ status: "failed", error: "boom", jobId: 7, credentials: null });
    expect(await ctx.store.imports.projects.update(p.id, [], { status: "started" }, at(4))).toBeNull();
    expect(await ctx.store.imports.projects.update(p.id + 1000, ["failed"], { status: "started" }, at(4))).toBeNull();
    expect((await ctx.store.imports.projects.find(p.id))?.status).toBe("failed");
  });

  it("imports.projects.update - of two racing cancels from started, exactly one wins", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    await scheduled(p, user.id);
    const results = await Promise.all([
      ctx.store.imports.projects.update(p.id, ["scheduled", "started"], { status: "canceled" }, at(1)),
      ctx.store.imports.projects.update(p.id, ["scheduled", "started"], { status: "canceled" }, at(1)),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it("imports.externalIds - add maps once per project and kind; find returns only mapped ids", async () => {
    const p = await project();
    const other = await project();
    expect(await ctx.store.imports.externalIds.add(p.id, "issue", "12", 501)).toBe(true);
    expect(await ctx.store.imports.externalIds.add(p.id, "issue", "12", 999)).toBe(false);
    expect(await ctx.store.imports.externalIds.add(p.id, "merge_request", "12", 601)).toBe(true);
    expect(await ctx.store.imports.externalIds.add(other.id, "issue", "12", 701)).toBe(true);
    const found = await ctx.store.imports.externalIds.find(p.id, "issue", ["12", "13"]);
    expect([...found.entries()]).toEqual([["12", 501]]);
    expect([...(await ctx.store.imports.externalIds.find(p.id, "merge_request", ["12"])).entries()]).toEqual([["12", 601]]);
    expect((await ctx.store.imports.externalIds.find(p.id, "note", [])).size).toBe(0);
  });

  it("imports.externalIds.find - answers long lists (beyond one IN chunk)", async () => {
    const p = await project();
    await ctx.store.transaction(async (tx) => {
      for (let i = 1; i <= 650; i++) await tx.imports.externalIds.add(p.id, "note", String(i), i * 10);
    });
    const wanted = Array.from({ length: 700 }, (_, i) => String(i + 1));
    const found = await ctx.store.imports.externalIds.find(p.id, "note", wanted);
    expect(found.size).toBe(650);
    expect(found.get("650")).toBe(6500);
  });

  it("imports.externalIds.add - a duplicate inside a transaction leaves the transaction usable", async () => {
    const p = await project();
    const result = await ctx.store.transaction(async (tx) => {
      await tx.imports.externalIds.add(p.id, "label", "bug", 1);
      const again = await tx.imports.externalIds.add(p.id, "label", "bug", 2);
      await tx.imports.externalIds.add(p.id, "label", "feature", 3);
      return again;
    });
    expect(result).toBe(false);
    expect((await ctx.store.imports.externalIds.find(p.id, "label", ["bug", "feature"])).size).toBe(2);
  });

  it("labels - unique name per project; listed by name; links once per target", async () => {
    const p = await project();
    const other = await project();
    const bug = await ctx.store.imports.labels.create({ projectId: p.id, name: "bug", color: "#d73a4a", description: "Something is broken" }, T0);
    expect(bug).toEqual({ id: expect.any(Number), projectId: p.id, groupId: null, name: "bug", color: "#d73a4a", description: "Something is broken", createdAt: T0, updatedAt: T0 });
    expect(await ctx.store.imports.labels.create({ projectId: p.id, name: "bug", color: "#000000", description: "" }, T0)).toBeNull();
    expect(await ctx.store.imports.labels.create({ projectId: other.id, name: "bug", color: "#000000", description: "" }, T0)).not.toBeNull();
    const docs = await ctx.store.imports.labels.create({ projectId: p.id, name: "docs", color: "#0075ca", description: "" }, T0);
    const a = await ctx.store.imports.labels.create({ projectId: p.id, name: "API", color: "#0075ca", description: "" }, T0);
    expect((await ctx.store.imports.labels.listByProject(p.id)).map((l) => l.name)).toEqual(["API", "bug", "docs"]);
    expect(await ctx.store.imports.labels.findByName(p.id, "docs")).toEqual(docs);
    expect(await ctx.store.imports.labels.findByName(p.id, "Docs")).toBeNull();
    if (bug === null || docs === null || a === null) throw new Error("fixture labels refused");
    expect(await ctx.store.imports.labels.link(docs.id, "Issue", 5)).toBe(true);
    expect(await ctx.store.imports.labels.link(bug.id, "Issue", 5)).toBe(true);
    expect(await ctx.store.imports.labels.link(bug.id, "Issue", 5)).toBe(false);
    expect(await ctx.store.imports.labels.link(a.id, "MergeRequest", 5)).toBe(true);
    expect((await ctx.store.imports.labels.labelsOf("Issue", 5)).map((l) => l.name)).toEqual(["bug", "docs"]);
    expect((await ctx.store.imports.labels.labelsOf("MergeRequest", 5)).map((l) => l.name)).toEqual(["API"]);
    expect(await ctx.store.imports.labels.labelsOf("Issue", 6)).toEqual([]);
  });

  it("activity create with an explicit iid - keeps it; later creates continue after the highest", async () => {
    const user = await makeUser(ctx.store);
    const p = await project();
    const kept = await ctx.store.activity.issues.create({ projectId: p.id, title: "Imported", description: "", confidential: false, authorId: user.id, iid: 42 }, T0);
    expect(kept.iid).toBe(42);
    expect((await ctx.store.activity.issues.findByIid(p.id, 42))?.id).toBe(kept.id);
    const next = await ctx.store.activity.issues.create({ projectId: p.id, title: "Next", description: "", confidential: false, authorId: user.id }, T0);
    expect(next.iid).toBe(43);
    const mr = await ctx.store.activity.mergeRequests.create({ projectId: p.id, title: "PR", description: "", authorId: user.id, sourceBranch: "f", targetBranch: "main", iid: 42 }, T0);
    expect(mr.iid).toBe(42);
    const milestone = await ctx.store.activity.milestones.create({ projectId: p.id, title: "v1", description: "", iid: 3 }, T0);
    expect(milestone?.iid).toBe(3);
    await expect(ctx.store.activity.issues.create({ projectId: p.id, title: "Again", description: "", confidential: false, authorId: user.id, iid: 42 }, T0)).rejects.toThrow();
  });
}
