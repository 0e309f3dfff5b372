/** Conformance: error-tracking settings and client keys (ports/error-tracking-store.ts). */
import { expect, it } from "vitest";
import type { Project } from "../../accounts/types.js";
import type { Store } from "../../ports/store.js";
import { T0, at, ids, makeGroup, makeProject, unique, type SuiteContext } from "./context.js";
import { errorTrackingErrorTests } from "./error-tracking-errors.js";

const page = (n: number, perPage = 100) => ({ kind: "offset", page: n, perPage }) as const;

/** A project in a fresh group: error-tracking rows hang off projects. */
export async function makeTrackedProject(store: Pick<Store, "namespaces" | "projects">): Promise<Project> {
  return makeProject(store, await makeGroup(store));
}

/** A public key no other fixture uses (word characters, like the service's). */
export function publicKey(): string {
  return unique("fket_").padEnd(37, "0");
}

export function errorTrackingTests(ctx: SuiteContext): void {
  const settings = () => ctx.store.errorTracking.settings;
  const keys = () => ctx.store.errorTracking.clientKeys;

  it("errorTracking.settings.find - null while the project has no settings", async () => {
    const project = await makeTrackedProject(ctx.store);
    expect(await settings().find(project.id)).toBeNull();
  });

  it("errorTracking.settings.save - creates the settings, then updates both flags and keeps createdAt", async () => {
    const project = await makeTrackedProject(ctx.store);
    const created = await settings().save(project.id, { active: true, integrated: true }, T0);
    expect(created).toEqual({ projectId: project.id, active: true, integrated: true, createdAt: T0, updatedAt: T0 });
    expect(await settings().find(project.id)).toEqual(created);
    const updated = await settings().save(project.id, { active: false, integrated: false }, at(5));
    expect(updated).toEqual({ projectId: project.id, active: false, integrated: false, createdAt: T0, updatedAt: at(5) });
    expect(await settings().find(project.id)).toEqual(updated);
  });

  it("errorTracking.settings.save - settings of one project leave the others alone", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    await settings().save(a.id, { active: true, integrated: true }, T0);
    expect(await settings().find(b.id)).toBeNull();
  });

  it("errorTracking.settings.save - rejects for a project that does not exist", async () => {
    await expect(settings().save(999_999, { active: true, integrated: true }, T0)).rejects.toThrow();
  });

  it("errorTracking.settings.update - null (nothing written) while the project has no settings", async () => {
    const project = await makeTrackedProject(ctx.store);
    expect(await settings().update(project.id, { active: true }, T0)).toBeNull();
    expect(await settings().find(project.id)).toBeNull();
  });

  it("errorTracking.settings.update - changes only the flags it is given", async () => {
    const project = await makeTrackedProject(ctx.store);
    await settings().save(project.id, { active: true, integrated: true }, T0);
    expect(await settings().update(project.id, { active: false }, at(1))).toEqual({ projectId: project.id, active: false, integrated: true, createdAt: T0, updatedAt: at(1) });
    expect(await settings().update(project.id, { integrated: false }, at(2))).toMatchObject({ active: false, integrated: false, updatedAt: at(2) });
    expect(await settings().update(project.id, { active: true, integrated: true }, at(3))).toMatchObject({ active: true, integrated: true });
    expect(await settings().find(project.id)).toEqual({ projectId: project.id, active: true, integrated: true, createdAt: T0, updatedAt: at(3) });
  });

  it("errorTracking.clientKeys.create - returns an active key; find returns it", async () => {
    const project = await makeTrackedProject(ctx.store);
    const key = publicKey();
    const created = await keys().create(project.id, key, T0);
    expect(created).toEqual({ id: expect.any(Number), projectId: project.id, active: true, publicKey: key, createdAt: T0 });
    expect(await keys().find(project.id, created!.id)).toEqual(created);
  });

  it("errorTracking.clientKeys.create - null when the public key is taken, even by another project", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const key = publicKey();
    expect(await keys().create(a.id, key, T0)).not.toBeNull();
    expect(await keys().create(b.id, key, T0)).toBeNull();
    expect((await keys().list(b.id, page(1))).items).toEqual([]);
  });

  it("errorTracking.clientKeys.create - rejects for a project that does not exist", async () => {
    await expect(keys().create(999_999, publicKey(), T0)).rejects.toThrow();
  });

  it("errorTracking.clientKeys.find - null for an unknown id or a key of another project", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const created = await keys().create(a.id, publicKey(), T0);
    expect(await keys().find(b.id, created!.id)).toBeNull();
    expect(await keys().find(a.id, created!.id + 1000)).toBeNull();
  });

  it("errorTracking.clientKeys.findByPublicKey - exact, case-sensitive, within the project", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const key = `fket_${unique("Case")}abc`;
    const created = await keys().create(a.id, key, T0);
    expect(await keys().findByPublicKey(a.id, key)).toEqual(created);
    expect(await keys().findByPublicKey(a.id, key.toUpperCase())).toBeNull();
    expect(await keys().findByPublicKey(a.id, key.slice(0, -1))).toBeNull();
    expect(await keys().findByPublicKey(b.id, key)).toBeNull();
  });

  it("errorTracking.clientKeys.list - the project's keys by id, paged with totals", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const k1 = await keys().create(a.id, publicKey(), T0);
    await keys().create(b.id, publicKey(), T0);
    const k2 = await keys().create(a.id, publicKey(), T0);
    const k3 = await keys().create(a.id, publicKey(), T0);
    expect(await keys().list(a.id, page(1))).toEqual({ items: [k1, k2, k3], total: 3, hasNext: false });
    const first = await keys().list(a.id, page(1, 2));
    expect([ids(first.items), first.total, first.hasNext]).toEqual([[k1!.id, k2!.id], 3, true]);
    const second = await keys().list(a.id, page(2, 2));
    expect([ids(second.items), second.total, second.hasNext]).toEqual([[k3!.id], 3, false]);
    expect(await keys().list(a.id, page(3, 2))).toEqual({ items: [], total: 3, hasNext: false });
  });

  it("errorTracking.clientKeys.setActive - flips the flag; null for a key of another project", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const created = await keys().create(a.id, publicKey(), T0);
    expect(await keys().setActive(a.id, created!.id, false)).toEqual({ ...created, active: false });
    expect(await keys().findByPublicKey(a.id, created!.publicKey)).toMatchObject({ active: false });
    expect(await keys().setActive(b.id, created!.id, true)).toBeNull();
    expect(await keys().setActive(a.id, created!.id, true)).toEqual(created);
  });

  it("errorTracking.clientKeys.delete - returns the key once, then null; a key of another project stays", async () => {
    const a = await makeTrackedProject(ctx.store);
    const b = await makeTrackedProject(ctx.store);
    const created = await keys().create(a.id, publicKey(), T0);
    expect(await keys().delete(b.id, created!.id)).toBeNull();
    expect(await keys().delete(a.id, created!.id)).toEqual(created);
    expect(await keys().delete(a.id, created!.id)).toBeNull();
    expect(await keys().find(a.id, created!.id)).toBeNull();
  });

  it("errorTracking - ids past the 32-bit range match nothing (null, not a storage failure)", async () => {
    const project = await makeTrackedProject(ctx.store);
    const big = 2 ** 31;
    expect(await settings().find(big)).toBeNull();
    expect(await settings().update(big, { active: true }, T0)).toBeNull();
    expect(await keys().find(project.id, big)).toBeNull();
    expect(await keys().find(big, 1)).toBeNull();
    expect(await keys().findByPublicKey(big, publicKey())).toBeNull();
    expect(await keys().setActive(project.id, big, false)).toBeNull();
    expect(await keys().delete(project.id, big)).toBeNull();
    expect(await ctx.store.errorTracking.errors.find(project.id, big)).toBeNull();
    expect((await ctx.store.errorTracking.errors.listEvents(big, page(1))).items).toEqual([]);
    expect((await keys().list(big, page(1))).items).toEqual([]);
  });

  it("errorTracking.clientKeys.delete - a deleted key's public key can be used again", async () => {
    const project = await makeTrackedProject(ctx.store);
    const key = publicKey();
    const created = await keys().create(project.id, key, T0);
    await keys().delete(project.id, created!.id);
    expect(await keys().create(project.id, key, T0)).toMatchObject({ publicKey: key });
  });

  it("errorTracking - writes inside a rolled-back transaction leave nothing", async () => {
    const project = await makeTrackedProject(ctx.store);
    await expect(
      ctx.store.transaction(async (tx) => {
        await tx.errorTracking.settings.save(project.id, { active: true, integrated: true }, T0);
        await tx.errorTracking.clientKeys.create(project.id, publicKey(), T0);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await settings().find(project.id)).toBeNull();
    expect((await keys().list(project.id, page(1))).total).toBe(0);
  });

  if (ctx.options.concurrency !== false) {
    it("errorTracking.clientKeys.delete - exactly one of several racing callers gets the key", async () => {
      const project = await makeTrackedProject(ctx.store);
      const created = await keys().create(project.id, publicKey(), T0);
      const results = await Promise.all(Array.from({ length: 6 }, () => keys().delete(project.id, created!.id)));
      expect(results.filter((r) => r !== null)).toEqual([created]);
    });
  }

  errorTrackingErrorTests(ctx);
}
