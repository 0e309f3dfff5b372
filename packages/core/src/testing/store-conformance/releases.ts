/** Conformance: `releases` (one release per project tag; links unique per release; removal with the project and author). */
import { expect, it } from "vitest";
import type { NewRelease, NewReleaseLink } from "../../ports/releases-store.js";
import { T0, at, makeGroup, makeProject, makeUser, type SuiteContext } from "./context.js";

const page = { kind: "offset", page: 1, perPage: 20 } as const;
const SHA = "a".repeat(40);
const link = (n: string, extra: Partial<NewReleaseLink> = {}): NewReleaseLink => ({ name: n, url: `https://example.com/${n}`, filepath: null, linkType: "other", ...extra });

async function world(ctx: SuiteContext) {
  const project = await makeProject(ctx.store, await makeGroup(ctx.store));
  const author = await makeUser(ctx.store);
  const release = (tagName: string, extra: Partial<NewRelease> = {}): NewRelease => ({ projectId: project.id, tagName, name: tagName, description: "", authorId: author.id, sha: SHA, milestoneIds: [], createdAt: T0, releasedAt: T0, ...extra });
  return { project, author, release };
}

export function releaseTests(ctx: SuiteContext): void {
  it("releases.create - one release per project and tag (case-sensitive); find reads it back with its links", async () => {
    const { project, author, release } = await world(ctx);
    const repo = ctx.store.releases;
    const made = await repo.create(release("v1.0", { name: "One", description: "notes", milestoneIds: [3, 1] }), [link("bin", { filepath: "/bin/app", linkType: "package" })], T0);
    expect(made).toEqual({ id: made?.id, projectId: project.id, tagName: "v1.0", name: "One", description: "notes", authorId: author.id, sha: SHA, milestoneIds: [3, 1], createdAt: T0, releasedAt: T0, updatedAt: T0 });
    expect(await repo.create(release("v1.0"), [], T0)).toBeNull();
    expect(await repo.create(release("V1.0"), [], T0)).not.toBeNull();
    expect(await repo.find(project.id, "v1.0")).toEqual(made);
    expect(await repo.find(project.id, "v2.0")).toBeNull();
    expect(await repo.links([made!.id])).toEqual([{ id: expect.any(Number), releaseId: made!.id, name: "bin", url: "https://example.com/bin", filepath: "/bin/app", linkType: "package", createdAt: T0, updatedAt: T0 }]);
  });

  it("releases.findByTags - the project's releases of exactly those tag names, in one call", async () => {
    const { project, release } = await world(ctx);
    const repo = ctx.store.releases;
    const one = await repo.create(release("v1"), [], T0);
    const two = await repo.create(release("V2"), [], T0);
    const other = await makeProject(ctx.store, await makeGroup(ctx.store));
    await repo.create({ ...release("v1"), projectId: other.id }, [], T0);
    const found = await repo.findByTags(project.id, ["v1", "v2", "V2", "missing"]);
    expect(found.map((r) => r.id).sort((a, b) => a - b)).toEqual([one!.id, two!.id].sort((a, b) => a - b));
    expect(await repo.findByTags(project.id, ["v2"])).toEqual([]);
    expect(await repo.findByTags(project.id, [])).toEqual([]);
  });

  it("releases.create - of two racing creates of one tag exactly one wins", async () => {
    const { release } = await world(ctx);
    const results = await Promise.all([ctx.store.releases.create(release("race"), [], T0), ctx.store.releases.create(release("race"), [], T0)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it("releases.list - by released_at or created_at, either direction, ties by id; paged", async () => {
    const { project, release } = await world(ctx);
    const repo = ctx.store.releases;
    await repo.create(release("a", { createdAt: at(1), releasedAt: at(30) }), [], T0);
    await repo.create(release("b", { createdAt: at(2), releasedAt: at(10) }), [], T0);
    await repo.create(release("c", { createdAt: at(3), releasedAt: at(20) }), [], T0);
    const tags = async (orderBy: "released_at" | "created_at", sort: "asc" | "desc", p = page) => (await repo.list(project.id, { orderBy, sort }, p)).items.map((r) => r.tagName);
    expect(await tags("released_at", "desc")).toEqual(["a", "c", "b"]);
    expect(await tags("released_at", "asc")).toEqual(["b", "c", "a"]);
    expect(await tags("created_at", "desc")).toEqual(["c", "b", "a"]);
    expect(await repo.list(project.id, { orderBy: "created_at", sort: "asc" }, { kind: "offset", page: 2, perPage: 2 })).toMatchObject({ total: 3, hasNext: false, items: [{ tagName: "c" }] });
  });

  it("releases.update / remove - patch the given fields; remove takes the links and reports a second call false", async () => {
    const { release } = await world(ctx);
    const repo = ctx.store.releases;
    const made = (await repo.create(release("v1"), [link("x")], T0))!;
    expect(await repo.update(made.id, { name: "New", milestoneIds: [7], releasedAt: at(5) }, at(1))).toEqual({ ...made, name: "New", milestoneIds: [7], releasedAt: at(5), updatedAt: at(1) });
    expect(await repo.update(made.id + 1000, { name: "x" }, at(1))).toBeNull();
    expect(await repo.remove(made.id)).toBe(true);
    expect(await repo.remove(made.id)).toBe(false);
    expect(await repo.links([made.id])).toEqual([]);
  });

  it("releases links - name, url and filepath unique per release; update and remove only the release's own links", async () => {
    const { release } = await world(ctx);
    const repo = ctx.store.releases;
    const one = (await repo.create(release("one"), [], T0))!;
    const two = (await repo.create(release("two"), [], T0))!;
    const a = await repo.addLink(one.id, link("a", { filepath: "/a" }), T0);
    expect(a).toMatchObject({ link: { name: "a", releaseId: one.id } });
    expect(await repo.addLink(one.id, link("a", { url: "https://example.com/other" }), T0)).toEqual({ refused: "name_taken" });
    expect(await repo.addLink(one.id, link("b", { url: "https://example.com/a" }), T0)).toEqual({ refused: "url_taken" });
    expect(await repo.addLink(one.id, link("c", { filepath: "/a" }), T0)).toEqual({ refused: "filepath_taken" });
    expect(await repo.addLink(two.id, link("a"), T0)).toMatchObject({ link: { name: "a" } });
    expect(await repo.addLink(two.id + 1000, link("z"), T0)).toBeNull();
    const id = "link" in a! ? a.link.id : -1;
    const b = await repo.addLink(one.id, link("b"), T0);
    const bId = "link" in b! ? b.link.id : -1;
    expect(await repo.updateLink(one.id, bId, { name: "a" }, at(1))).toEqual({ refused: "name_taken" });
    expect(await repo.updateLink(one.id, id, { name: "renamed", linkType: "image" }, at(1))).toMatchObject({ link: { id, name: "renamed", linkType: "image", filepath: "/a", updatedAt: at(1) } });
    expect(await repo.updateLink(two.id, id, { name: "x" }, at(1))).toBeNull();
    expect(await repo.removeLink(two.id, id)).toBeNull();
    expect(await repo.removeLink(one.id, id)).toMatchObject({ id, name: "renamed" });
    expect((await repo.links([one.id])).map((l) => l.name)).toEqual(["b"]);
  });

  it("releases - go with their project; a removed author leaves the release with no author", async () => {
    const { project, author, release } = await world(ctx);
    const made = (await ctx.store.releases.create(release("v1"), [link("x")], T0))!;
    expect(await ctx.store.users.remove(author.id)).toBe(true);
    expect((await ctx.store.releases.find(project.id, "v1"))?.authorId).toBeNull();
    await ctx.store.projects.remove(project.id);
    expect(await ctx.store.releases.find(project.id, "v1")).toBeNull();
    expect(await ctx.store.releases.links([made.id])).toEqual([]);
  });
}
