import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RepositoryRef, RepositoryStorage } from "../ports/repository-storage.js";
import type { Store } from "../ports/store.js";
import type { ForgekitOptions } from "../config.js";
import { createForgekit } from "../forgekit.js";
import { createTestForgekit, must, TEST_BASE_URL } from "../testing/fixtures.js";
import { memoryStore } from "../memory-store/index.js";
import { gitRepositoryStorage } from "./git-repository-storage.js";
import { hashedRepositoryPath } from "./hashed-path.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-containers-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const git = (gitDir: string, ...args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", env: { PATH: process.env["PATH"], GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() } }).trim();

/** A world on two shards with known directories. */
async function world(extra: Parameters<typeof createTestForgekit>[0] = {}) {
  const dir = tempDir();
  const t = await createTestForgekit({ repositoryStorages: { default: { path: join(dir, "default") }, secondary: { path: join(dir, "secondary") } }, ...extra });
  const pathOf = (shard: string, ref: RepositoryRef) => join(dir, shard, hashedRepositoryPath(ref));
  return { ...t, dir, pathOf };
}

describe("repositories of projects, groups and snippets", () => {
  it("a created project has an empty bare repository at its hashed path on its shard", async () => {
    const t = await world();
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "repo", defaultBranch: "trunk" });
    const path = t.pathOf("default", { kind: "project", id: p.id });
    expect(git(path, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(git(path, "symbolic-ref", "HEAD")).toBe("refs/heads/trunk");
    expect(git(path, "for-each-ref")).toBe("");
    // The seeded projects have theirs too, HEAD on main.
    expect(git(t.pathOf("default", { kind: "project", id: t.projects.hidden.id }), "symbolic-ref", "HEAD")).toBe("refs/heads/main");

    const moved = await t.createProject({ namespaceId: t.groups.grp.id, name: "elsewhere", repositoryStorage: "secondary" });
    expect(await t.fk.config.repositoryStorage.exists("secondary", { kind: "project", id: moved.id })).toBe(true);
    expect(await t.fk.config.repositoryStorage.exists("default", { kind: "project", id: moved.id })).toBe(false);
  });

  it("new containers go to defaultRepositoryStorage when one is named", async () => {
    const t = await world({ defaultRepositoryStorage: "secondary" });
    const p = await t.createProject({ namespaceId: t.groups.grp.id, name: "x" });
    expect(p.repositoryStorage).toBe("secondary");
    expect(existsSync(t.pathOf("secondary", { kind: "project", id: p.id }))).toBe(true);
    expect(existsSync(t.pathOf("secondary", { kind: "group-wiki", id: t.groups.grp.id }))).toBe(true);
  });

  it("groups get a wiki repository", async () => {
    const t = await world();
    const g = await t.createGroup({ name: "Wiki", path: "wiki" });
    const path = t.pathOf("default", { kind: "group-wiki", id: g.id });
    expect(path).toMatch(/@groups\/.*\.wiki\.git$/);
    expect(git(path, "rev-parse", "--is-bare-repository")).toBe("true");
  });

  it("project and personal snippets get a repository holding their file", async () => {
    const t = await world();
    const projectSnippet = await must(t.fk.snippets.create({ projectId: t.projects.publicProject.id, authorId: t.users.alice.id, title: "t", fileName: "dir/hello.rb", content: "puts 1\n", visibility: "public" }));
    const personal = await must(t.fk.snippets.create({ authorId: t.users.bob.id, title: "p", fileName: "empty.txt" }));
    const path = t.pathOf("default", { kind: "snippet", id: projectSnippet.id });
    expect(git(path, "show", "main:dir/hello.rb")).toBe("puts 1");
    expect(git(path, "log", "-1", "--format=%an <%ae> %s", "main")).toBe("Alice Liddell <alice@users.noreply.forge.example.com> Initial commit");
    expect(git(t.pathOf("default", { kind: "snippet", id: personal.id }), "ls-tree", "--name-only", "main")).toBe("empty.txt");
  });

  it("a bad default branch or snippet file name is a validation error, and nothing is created", async () => {
    const t = await world();
    expect((await t.fk.projects.create({ namespaceId: t.groups.grp.id, name: "bad", defaultBranch: "a..b" }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { default_branch: ["is invalid"] } });
    for (const fileName of ["../escape", "/abs", "a/.git/config"]) {
      expect((await t.fk.snippets.create({ authorId: t.users.alice.id, title: "x", fileName }))._unsafeUnwrapErr()).toEqual({ code: "validation", messages: { file_name: ["is invalid"] } });
    }
    expect(existsSync(join(t.dir, "default", "@snippets"))).toBe(false);
  });

  it("a repository that cannot be created leaves no row and no directory", async () => {
    const t = await world();
    const shard = join(t.dir, "default");
    // The same store and shard, but a git that cannot run: each repository fails after its row was inserted.
    const broken = instanceOn(t.store, { repositoryStorages: { default: { path: shard } }, repositoryStorage: gitRepositoryStorage({ shards: { default: shard }, git: join(t.dir, "missing-git") }) });
    expect((await broken.projects.create({ namespaceId: t.groups.grp.id, name: "orphan" }))._unsafeUnwrapErr().code).toBe("internal");
    expect((await t.fk.projects.findByFullPath("grp/orphan")).isErr()).toBe(true);
    expect((await broken.groups.create({ name: "Orphan", path: "orphan" }))._unsafeUnwrapErr().code).toBe("internal");
    expect((await t.fk.groups.findByFullPath("orphan")).isErr()).toBe(true);
    const before = await must(t.fk.snippets.create({ authorId: t.users.alice.id, title: "a", fileName: "a" }));
    expect((await broken.snippets.create({ authorId: t.users.alice.id, title: "b", fileName: "b" }))._unsafeUnwrapErr().code).toBe("internal");
    const after = await must(t.fk.snippets.create({ authorId: t.users.alice.id, title: "c", fileName: "c" }));
    for (let id = before.id + 1; id < after.id; id += 1) expect((await t.fk.snippets.find(id)).isErr()).toBe(true);
    expect(readdirSync(join(shard, "+tmp"))).toEqual([]);
    // A failed id leaves nothing in the way of the containers made after it.
    const next = await t.createProject({ namespaceId: t.groups.grp.id, name: "next" });
    expect(existsSync(t.pathOf("default", { kind: "project", id: next.id }))).toBe(true);
  });

  it("when the transaction fails after the repository was made, the repository is removed", async () => {
    const dir = tempDir();
    const base = memoryStore();
    let failCommits = false;
    // A store whose commit fails: the body runs, then the transaction rolls back.
    const store: Store = {
      ...base,
      transaction: (fn) =>
        base.transaction(async (tx) => {
          const value = await fn(tx);
          if (failCommits) throw new Error("commit failed");
          return value;
        }),
    };
    const shard = join(dir, "default");
    const real = gitRepositoryStorage({ shards: { default: shard } });
    const created: RepositoryRef[] = [];
    const spy: RepositoryStorage = {
      ...real,
      create: async (storage, ref, options) => {
        const made = await real.create(storage, ref, options);
        created.push(ref);
        return made;
      },
    };
    const t = await createTestForgekit({ store, repositoryStorages: { default: { path: shard } }, repositoryStorage: spy });
    failCommits = true;
    const made = await t.fk.projects.create({ namespaceId: t.groups.grp.id, name: "ghost" });
    expect(made._unsafeUnwrapErr().code).toBe("internal");
    failCommits = false;
    const ghost = created.at(-1);
    expect(ghost).toMatchObject({ kind: "project" });
    expect(existsSync(join(shard, hashedRepositoryPath(ghost as RepositoryRef)))).toBe(false);
    expect((await t.fk.projects.findByFullPath("grp/ghost")).isErr()).toBe(true);
    // The next project may get the ghost's id (this store reuses it): nothing is in its way.
    const next = await t.createProject({ namespaceId: t.groups.grp.id, name: "real" });
    expect(existsSync(join(shard, hashedRepositoryPath({ kind: "project", id: next.id })))).toBe(true);
  });

  it("a database reset while its shards were kept: leftovers are moved aside (with a warning), never adopted", async () => {
    const t = await world();
    const shards = { default: { path: join(t.dir, "default") }, secondary: { path: join(t.dir, "secondary") } };
    const oldHead = git(t.pathOf("default", { kind: "project", id: t.projects.publicProject.id }), "rev-parse", "--git-dir");
    const warnings: unknown[] = [];
    // A fresh store numbers its projects and groups from the start again: every path is taken.
    const again = await createTestForgekit({ repositoryStorages: shards, logger: { log: (level, event, fields) => void (level === "warn" && warnings.push({ event, ...fields })) } });
    expect(again.projects.publicProject.id).toBe(t.projects.publicProject.id);
    const moved = readdirSync(join(t.dir, "default", "+orphaned"));
    expect(moved).toHaveLength(8); // 3 group wikis, 5 projects
    expect(warnings).toHaveLength(8);
    expect(warnings[0]).toMatchObject({ event: "repositories.orphan_moved_aside", storage: "default", movedTo: expect.stringContaining("+orphaned") });
    expect(git(oldHead, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
  });

  it("a shard without a directory fails creation with a message saying which setting is missing", async () => {
    const t = await world();
    const noPath = instanceOn(t.store, { repositoryStorages: ["default"] });
    const error = (await noPath.projects.create({ namespaceId: t.groups.grp.id, name: "nowhere" }))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: "internal", cause: { reason: "no_path" } });
    expect(String((error as { cause: Error }).cause.message)).toContain("set repositoryStorages.default.path");
    expect((await t.fk.projects.findByFullPath("grp/nowhere")).isErr()).toBe(true);
  });
});

/** A second instance over an existing store (no seeding). */
function instanceOn(store: Store, options: Partial<ForgekitOptions>) {
  return createForgekit({ baseUrl: TEST_BASE_URL, store, logger: { log: () => undefined }, ...options });
}
