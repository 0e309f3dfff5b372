/**
 * Conformance: `accessTokens.findByDigestWithProject` (ports/project-read-store.ts, issue 21) — what
 * `GET /projects/:id` reads with the token in one lookup agrees with the reads it replaces, as the
 * rows are now (revocations, blocks and membership changes seen by the next call).
 */
import { expect, it } from "vitest";
import type { Project, User } from "../../accounts/types.js";
import { T0, addMember, at, digest, makeGroup, makeProject, makeUser, makeUserNamespace, type SuiteContext } from "./context.js";

export function projectReadTests(ctx: SuiteContext): void {
  const tokenOf = (user: User) => ctx.store.accessTokens.create({ kind: "personal", userId: user.id, name: "t", scopes: ["api"], digest: digest(), expiresAt: null }, T0);

  /** What the separate reads say about `project` for `user` at `now`. */
  async function separately(user: User, project: Project, now: Date) {
    const { store } = ctx;
    const chain = await store.namespaces.chain(project.namespaceId);
    const namespace = chain[0];
    const owner = namespace?.kind === "user" && namespace.ownerId !== null ? await store.users.findById(namespace.ownerId) : null;
    const levels = await store.members.projectPermissionLevels(user.id, project.id, null, now);
    return {
      project: await store.projects.findById(project.id),
      chain,
      owner,
      direct: levels.project,
      chainLevel: await store.members.namespaceAccessLevel(user.id, project.namespaceId, now),
      openIssues: (await store.activity.issues.countOpened([project.id])).get(project.id) ?? 0,
      importStatus: (await store.imports.projects.statuses([project.id])).get(project.id) ?? null,
    };
  }

  it("accessTokens.findByDigestWithProject - a project in a subgroup: the chain nearest first, the direct level unexpired at now, the highest chain level", async () => {
    const user = await makeUser(ctx.store);
    const root = await makeGroup(ctx.store, { name: "Root" });
    const sub = await makeGroup(ctx.store, { name: "Sub", parent: root });
    const project = await makeProject(ctx.store, sub);
    await addMember(ctx.store, { kind: "namespace", of: root }, user, 30);
    await addMember(ctx.store, { kind: "namespace", of: sub }, user, 40, at(10));
    await addMember(ctx.store, { kind: "project", of: project }, user, 20, at(5));
    const token = await tokenOf(user);
    for (const now of [T0, at(5), at(10)]) {
      const read = await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id, now);
      expect(read, `at ${now.toISOString()}`).toEqual({ token, user: await ctx.store.users.findById(user.id), project: await separately(user, project, now) });
    }
    const early = await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id, T0);
    expect(early?.project).toMatchObject({ direct: 20, chainLevel: 40 });
    expect(early?.project?.chain.map((n) => n.id)).toEqual([sub.id, root.id]);
    expect((await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id, at(10)))?.project).toMatchObject({ direct: 0, chainLevel: 30 });
  });

  it("accessTokens.findByDigestWithProject - a personal project: its owner with the namespace owner's Owner level; another user with none", async () => {
    const owner = await makeUser(ctx.store);
    const other = await makeUser(ctx.store);
    const namespace = await makeUserNamespace(ctx.store, owner);
    const project = await makeProject(ctx.store, namespace);
    const mine = await ctx.store.accessTokens.findByDigestWithProject((await tokenOf(owner)).digest, project.id, T0);
    expect(mine?.project).toEqual(await separately(owner, project, T0));
    expect(mine?.project).toMatchObject({ direct: 0, chainLevel: 50, owner: await ctx.store.users.findById(owner.id) });
    const theirs = await ctx.store.accessTokens.findByDigestWithProject((await tokenOf(other)).digest, project.id, T0);
    expect(theirs?.project).toMatchObject({ direct: 0, chainLevel: 0 });
  });

  it("accessTokens.findByDigestWithProject - the token as it is now: revoked, its user blocked, a membership removed; null for an unknown digest, project null for an unknown project", async () => {
    const user = await makeUser(ctx.store);
    const group = await makeGroup(ctx.store);
    const project = await makeProject(ctx.store, group);
    const member = await addMember(ctx.store, { kind: "namespace", of: group }, user, 30);
    const token = await tokenOf(user);
    expect((await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id, T0))?.project?.chainLevel).toBe(30);
    await ctx.store.members.remove(member.id);
    await ctx.store.accessTokens.revoke(token.id);
    const blocked = await ctx.store.users.update(user.id, { state: "blocked" });
    const read = await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id, T0);
    expect(read).toMatchObject({ token: { ...token, revoked: true }, user: blocked, project: { direct: 0, chainLevel: 0 } });
    expect(await ctx.store.accessTokens.findByDigestWithProject(token.digest, project.id + 1000, T0)).toEqual({ token: { ...token, revoked: true }, user: blocked, project: null });
    expect(await ctx.store.accessTokens.findByDigestWithProject(digest(), project.id, T0)).toBeNull();
  });
}
