/** Deleting projects and groups over the services: rows in one transaction, then their repositories (issue 9 §1). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { LogLevel } from "../ports/runtime.js";
import { gitRepositoryStorage } from "../repositories/git-repository-storage.js";
import { hashedRepositoryPath } from "../repositories/hashed-path.js";
import { REMOVE_REPOSITORY_JOB } from "../repositories/removal.js";
import { drainJobs, faultyStorage } from "../storage-moves/test-kit.js";
import { createTestForgekit } from "../testing/fixtures.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function world() {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-removal-"));
  dirs.push(dir);
  const shards = { default: join(dir, "default") };
  const storage = faultyStorage(gitRepositoryStorage({ shards }));
  const logs: { level: LogLevel; event: string; data: unknown }[] = [];
  const logger = { log: (level: LogLevel, event: string, data?: unknown) => void logs.push({ level, event, data }) };
  const t = await createTestForgekit({ repositoryStorages: { default: { path: shards.default } }, repositoryStorage: storage, logger });
  const exists = (kind: "project" | "group-wiki" | "snippet", id: number) => storage.exists("default", { kind, id });
  return { ...t, storage, logs, exists, pathOf: (kind: "project" | "group-wiki", id: number) => join(shards.default, hashedRepositoryPath({ kind, id })) };
}

describe("fk.projects.remove", () => {
  it("removes the row and then the repository", async () => {
    const t = await world();
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "gone" });
    expect(await t.exists("project", p.id)).toBe(true);
    expect((await t.fk.projects.remove(p.id)).isOk()).toBe(true);
    expect(await t.store.projects.findById(p.id)).toBeNull();
    expect(await t.exists("project", p.id)).toBe(false);
  });

  it("a repository that cannot be deleted is logged and deleted later by the retry job", async () => {
    const t = await world();
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "stuck" });
    t.storage.fail("delete", 2);
    expect((await t.fk.projects.remove(p.id)).isOk()).toBe(true);
    expect(await t.store.projects.findById(p.id)).toBeNull();
    expect(await t.exists("project", p.id)).toBe(true);
    expect(t.logs.find((l) => l.event === "repositories.remove_failed")).toMatchObject({ level: "error", data: { kind: "project", id: p.id } });
    const queued = await t.store.jobs.list({ kind: REMOVE_REPOSITORY_JOB }, { kind: "offset", page: 1, perPage: 10 });
    expect(queued.items).toHaveLength(1);
    await drainJobs(t);
    expect(await t.exists("project", p.id)).toBe(false);
    const done = await t.store.jobs.findById(queued.items[0]?.id ?? 0);
    expect(done).toMatchObject({ state: "succeeded", attempts: 2 });
  });

  it("refuses while the repository is read-only (a storage move runs): nothing is removed", async () => {
    const t = await world();
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "moving", repositoryReadOnly: true });
    const r = await t.fk.projects.remove(p.id);
    expect(r.isErr() && r.error.code).toBe("conflict");
    expect(await t.store.projects.findById(p.id)).not.toBeNull();
    expect(await t.exists("project", p.id)).toBe(true);
  });
});

describe("fk.groups.remove", () => {
  it("removes subgroups, projects and every wiki and project repository in the tree; siblings stay", async () => {
    const t = await world();
    const top = await t.createGroup({ name: "Top", path: "top" });
    const child = await t.createGroup({ name: "Child", path: "child", parentId: top.id });
    const a = await t.createProject({ namespaceId: top.id, name: "a" });
    const b = await t.createProject({ namespaceId: child.id, name: "b" });
    expect((await t.fk.groups.remove(top.id)).isOk()).toBe(true);
    for (const id of [top.id, child.id]) expect(await t.store.namespaces.findById(id)).toBeNull();
    for (const id of [a.id, b.id]) expect(await t.exists("project", id)).toBe(false);
    for (const id of [top.id, child.id]) expect(await t.exists("group-wiki", id)).toBe(false);
    expect(await t.exists("group-wiki", t.groups.grp.id)).toBe(true);
    expect(await t.exists("project", t.projects.publicProject.id)).toBe(true);
  });
});

describe("fk.projects.create with initializeWithReadme", () => {
  it("commits README.md to the default branch, authored by the creator", async () => {
    const t = await world();
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "Readme", description: "About it", creatorId: t.users.alice.id, initializeWithReadme: true, defaultBranch: "trunk" });
    const git = (...args: string[]) => execFileSync("git", [`--git-dir=${t.pathOf("project", p.id)}`, ...args], { encoding: "utf8" }).trim();
    expect(git("show", "trunk:README.md")).toBe("# Readme\n\nAbout it");
    expect(git("log", "-1", "--format=%an <%ae> %s", "trunk")).toBe(`${t.users.alice.name} <alice@users.noreply.forge.example.com> Initial commit`);
  });
});

describe("fk.groups.update", () => {
  it("visibility stays within the parent's and no more closed than a subgroup or project", async () => {
    const t = await world();
    const inSecret = await t.createGroup({ name: "In secret", path: "in-secret", parentId: t.groups.secret.id });
    const tooOpen = await t.fk.groups.update(inSecret.id, { visibility: "public" });
    expect(tooOpen._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { visibility_level: ["public is not allowed since the parent group has a private visibility."] } });
    const closing = await t.fk.groups.update(t.groups.grp.id, { visibility: "private" });
    expect(closing._unsafeUnwrapErr()).toMatchObject({ code: "validation", messages: { visibility_level: [expect.stringContaining("private is not allowed since")] } });
    const renamed = await t.fk.groups.update(t.groups.grp.id, { name: "Renamed", description: "d" });
    expect(renamed._unsafeUnwrap()).toMatchObject({ name: "Renamed", description: "d", path: "grp" });
  });
});
