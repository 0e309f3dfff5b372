/** Conformance: ProjectRepository.list (visibility, filters, order, keyset). */
import { expect, it } from "vitest";
import { AccessLevel, type Project } from "../../accounts/types.js";
import type { KeysetPageResult, OffsetPageResult, ProjectListFilter } from "../../ports/store.js";
import { addMember, at, ids, makeGroup, makeProject, makeUser, makeUserNamespace, viewerOf, type SuiteContext } from "./context.js";

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

export function projectListTests(ctx: SuiteContext): void {
  const list = async (filter: ProjectListFilter) =>
    (await ctx.store.projects.list(filter, { kind: "offset", page: 1, perPage: 100 })) as OffsetPageResult<Project>;
  const listIds = async (filter: ProjectListFilter) => sorted(ids((await list(filter)).items));

  async function world() {
    const alice = await makeUser(ctx.store);
    const bob = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store, { visibility: "public" });
    const pub = await makeProject(ctx.store, group, { visibility: "public" });
    const int = await makeProject(ctx.store, group, { visibility: "internal" });
    const priv = await makeProject(ctx.store, group, { visibility: "private" });
    return { alice, bob, group, pub, int, priv };
  }

  it("projects.list - anonymous viewers see public projects only", async () => {
    const { pub } = await world();
    expect(await listIds({ viewer: null })).toEqual([pub.id]);
  });

  it("projects.list - signed-in viewers see public and internal projects", async () => {
    const { alice, pub, int } = await world();
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id]));
  });

  it("projects.list - admins see every project", async () => {
    const { alice, pub, int, priv } = await world();
    expect(await listIds({ viewer: viewerOf(alice, true) })).toEqual(sorted([pub.id, int.id, priv.id]));
  });

  it("projects.list - a direct project member sees the private project", async () => {
    const { alice, pub, int, priv } = await world();
    await addMember(ctx.store, { kind: "project", of: priv }, alice, AccessLevel.Guest);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, priv.id]));
  });

  it("projects.list - a member of the namespace or an ancestor sees the private projects below", async () => {
    const { alice, pub, int } = await world();
    const top = await makeGroup(ctx.store);
    const sub = await makeGroup(ctx.store, { parent: top });
    const inTop = await makeProject(ctx.store, top);
    const inSub = await makeProject(ctx.store, sub);
    const elsewhere = await makeGroup(ctx.store);
    await makeProject(ctx.store, elsewhere);
    await addMember(ctx.store, { kind: "namespace", of: top }, alice, AccessLevel.Reporter);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, inTop.id, inSub.id]));
  });

  it("projects.list - the owner of a personal namespace sees its private projects, others do not", async () => {
    const { alice, bob, pub, int } = await world();
    const home = await makeUserNamespace(ctx.store, alice);
    const mine = await makeProject(ctx.store, home);
    expect(await listIds({ viewer: viewerOf(alice) })).toEqual(sorted([pub.id, int.id, mine.id]));
    expect(await listIds({ viewer: viewerOf(bob) })).toEqual(sorted([pub.id, int.id]));
  });

  it("projects.list - memberships expired at `now` are ignored", async () => {
    const { alice, pub, int, priv } = await world();
    await addMember(ctx.store, { kind: "project", of: priv }, alice, AccessLevel.Developer, at(5));
    expect(await listIds({ viewer: viewerOf(alice), now: at(5) })).toEqual(sorted([pub.id, int.id]));
    expect(await listIds({ viewer: viewerOf(alice), now: at(4) })).toEqual(sorted([pub.id, int.id, priv.id]));
    expect(await listIds({ viewer: viewerOf(alice), now: at(6), membership: true })).toEqual([]);
  });

  it("projects.list - search matches name or path case-insensitively as a substring", async () => {
    const group = await makeGroup(ctx.store, { visibility: "public" });
    const byName = await makeProject(ctx.store, group, { path: "p-one", name: "Find THIS", visibility: "public" });
    const byPath = await makeProject(ctx.store, group, { path: "this-one", name: "Other", visibility: "public" });
    await makeProject(ctx.store, group, { path: "nope", name: "Nope", visibility: "public" });
    expect(await listIds({ viewer: null, search: "This" })).toEqual(sorted([byName.id, byPath.id]));
  });

  it("projects.list - membership keeps projects the viewer is a member of, directly or through groups", async () => {
    const { alice, pub, priv } = await world();
    const team = await makeGroup(ctx.store);
    const teamProject = await makeProject(ctx.store, team);
    const home = await makeUserNamespace(ctx.store, alice);
    const mine = await makeProject(ctx.store, home);
    await addMember(ctx.store, { kind: "project", of: priv }, alice, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "namespace", of: team }, alice, AccessLevel.Developer);
    expect(await listIds({ viewer: viewerOf(alice), membership: true })).toEqual(sorted([priv.id, teamProject.id, mine.id]));
    expect(await listIds({ viewer: viewerOf(alice, true), membership: true })).not.toContain(pub.id);
    expect(await listIds({ viewer: null, membership: true })).toEqual([]);
  });

  it("projects.list - owned keeps projects in the viewer's personal namespace", async () => {
    const { alice, bob, priv } = await world();
    const home = await makeUserNamespace(ctx.store, alice, "public");
    const mine = await makeProject(ctx.store, home, { visibility: "public" });
    const bobHome = await makeUserNamespace(ctx.store, bob, "public");
    await makeProject(ctx.store, bobHome, { visibility: "public" });
    await addMember(ctx.store, { kind: "project", of: priv }, alice, AccessLevel.Owner);
    expect(await listIds({ viewer: viewerOf(alice), owned: true })).toEqual([mine.id]);
    expect(await listIds({ viewer: null, owned: true })).toEqual([]);
  });

  it("projects.list - visibility, repositoryStorage and namespaceId filter exactly", async () => {
    const { alice, group, int } = await world();
    const other = await makeGroup(ctx.store, { visibility: "public" });
    const moved = await makeProject(ctx.store, other, { visibility: "public", repositoryStorage: "shard-b" });
    const admin = viewerOf(alice, true);
    expect(await listIds({ viewer: admin, visibility: "internal" })).toEqual([int.id]);
    expect(await listIds({ viewer: admin, repositoryStorage: "shard-b" })).toEqual([moved.id]);
    expect(await listIds({ viewer: admin, namespaceId: other.id })).toEqual([moved.id]);
    expect(await listIds({ viewer: admin, namespaceId: group.id, visibility: "public", repositoryStorage: "shard-b" })).toEqual([]);
  });

  it("projects.list - minAccessLevel keeps projects where the viewer's highest level reaches it", async () => {
    const { alice, pub, int, priv } = await world();
    const team = await makeGroup(ctx.store);
    const teamProject = await makeProject(ctx.store, team);
    await addMember(ctx.store, { kind: "project", of: pub }, alice, AccessLevel.Guest);
    await addMember(ctx.store, { kind: "project", of: priv }, alice, AccessLevel.Maintainer);
    await addMember(ctx.store, { kind: "namespace", of: team }, alice, AccessLevel.Developer);
    await addMember(ctx.store, { kind: "project", of: teamProject }, alice, AccessLevel.Reporter);
    const viewer = viewerOf(alice);
    expect(await listIds({ viewer, minAccessLevel: AccessLevel.Developer })).toEqual(sorted([priv.id, teamProject.id]));
    expect(await listIds({ viewer, minAccessLevel: AccessLevel.Maintainer })).toEqual([priv.id]);
    expect(await listIds({ viewer, minAccessLevel: AccessLevel.Guest })).not.toContain(int.id);
  });

  it("projects.list - orders by created_at descending by default, ties by id", async () => {
    const group = await makeGroup(ctx.store, { visibility: "public" });
    const early = await makeProject(ctx.store, group, { visibility: "public" }, at(1));
    const tieA = await makeProject(ctx.store, group, { visibility: "public" }, at(2));
    const tieB = await makeProject(ctx.store, group, { visibility: "public" }, at(2));
    expect(ids((await list({ viewer: null })).items)).toEqual([tieB.id, tieA.id, early.id]);
    expect(ids((await list({ viewer: null, sort: "asc" })).items)).toEqual([early.id, tieA.id, tieB.id]);
  });

  it("projects.list - orders by id, name, path, updated_at and last_activity_at", async () => {
    const group = await makeGroup(ctx.store, { visibility: "public" });
    const a = await makeProject(ctx.store, group, { path: "b-path", name: "Zeta", visibility: "public" });
    const b = await makeProject(ctx.store, group, { path: "A-path", name: "alpha", visibility: "public" });
    const c = await makeProject(ctx.store, group, { path: "c-path", name: "Mu", visibility: "public" });
    await ctx.store.projects.update(a.id, { updatedAt: at(9), lastActivityAt: at(1) });
    await ctx.store.projects.update(b.id, { updatedAt: at(3), lastActivityAt: at(7) });
    await ctx.store.projects.update(c.id, { updatedAt: at(5), lastActivityAt: at(4) });
    const order = async (orderBy: ProjectListFilter["orderBy"]) => ids((await list({ viewer: null, orderBy, sort: "asc" })).items);
    expect(await order("id")).toEqual([a.id, b.id, c.id]);
    expect(await order("name")).toEqual([b.id, c.id, a.id]);
    expect(await order("path")).toEqual([b.id, a.id, c.id]);
    expect(await order("updated_at")).toEqual([b.id, c.id, a.id]);
    expect(await order("last_activity_at")).toEqual([a.id, c.id, b.id]);
    expect(ids((await list({ viewer: null, orderBy: "name", sort: "desc" })).items)).toEqual([a.id, c.id, b.id]);
  });

  it("projects.list - keyset by id walks visible projects in either direction; the cursor is the last id", async () => {
    const { pub, int, priv, alice } = await world();
    const more = [pub, int, priv];
    for (let i = 0; i < 3; i++) more.push(await makeProject(ctx.store, await makeGroup(ctx.store), { visibility: "internal" }));
    const expected = ids(more).filter((id) => id !== priv.id);
    for (const sort of ["asc", "desc"] as const) {
      const seen: number[] = [];
      let after: string | undefined;
      for (let round = 0; round < 10; round++) {
        const page = (await ctx.store.projects.list({ viewer: viewerOf(alice), orderBy: "id", sort }, { kind: "keyset", perPage: 2, after })) as KeysetPageResult<Project>;
        seen.push(...ids(page.items));
        if (page.nextCursor === null) break;
        expect(page.nextCursor).toBe(String(page.items.at(-1)?.id));
        after = page.nextCursor;
      }
      expect(seen).toEqual(sort === "asc" ? sorted(expected) : sorted(expected).reverse());
    }
  });

  it("projects.list - keyset rejects orderings other than id and malformed cursors", async () => {
    await world();
    await expect(ctx.store.projects.list({ viewer: null, orderBy: "name" }, { kind: "keyset", perPage: 5 })).rejects.toThrow();
    await expect(ctx.store.projects.list({ viewer: null }, { kind: "keyset", perPage: 5, after: "12abc" })).rejects.toThrow();
  });
}
