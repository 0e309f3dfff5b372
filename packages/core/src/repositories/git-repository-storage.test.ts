import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RepositoryStorage } from "../ports/repository-storage.js";
import { gitRepositoryStorage, refsChecksum } from "./git-repository-storage.js";
import { hashedRepositoryPath } from "./hashed-path.js";

const project = { kind: "project", id: 7 } as const;
const git = (gitDir: string, ...args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", env: { PATH: process.env["PATH"], GIT_CONFIG_NOSYSTEM: "1", HOME: tmpdir() } }).trim();

describe("gitRepositoryStorage", () => {
  let dir: string;
  let storage: RepositoryStorage;
  const pathOn = (shard: string, repository = project as Parameters<typeof hashedRepositoryPath>[0]) => join(dir, shard, hashedRepositoryPath(repository));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "forgekit-repos-"));
    storage = gitRepositoryStorage({ shards: { a: join(dir, "a"), b: join(dir, "b"), nowhere: undefined } });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("create makes an empty bare repository at the hashed path, HEAD on the default branch", async () => {
    await storage.create("a", project, { defaultBranch: "trunk" });
    const path = pathOn("a");
    expect(path).toMatch(/\/a\/@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);
    expect(git(path, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(git(path, "symbolic-ref", "HEAD")).toBe("refs/heads/trunk");
    expect(git(path, "for-each-ref")).toBe("");
    expect(await storage.exists("a", project)).toBe(true);
    expect(await storage.exists("b", project)).toBe(false);
    expect(await storage.checksum("a", project)).toBe("0".repeat(40));
    expect(await storage.size("a", project)).toBeGreaterThan(0);
    // Nothing is left in the work folder.
    expect(readdirSync(join(dir, "a", "+tmp"))).toEqual([]);
  });

  it("create with a commit writes the files on the default branch", async () => {
    const snippet = { kind: "snippet", id: 3 } as const;
    const files = [
      { path: "hello.txt", content: "héllo\n" },
      { path: 'dir/we"ird\\name.md', content: "" },
    ];
    await storage.create("a", snippet, { commit: { files, message: "Initial commit", author: { name: "Al <x>", email: "al@example.com" }, date: new Date("2024-05-01T12:00:00Z") } });
    const path = pathOn("a", snippet);
    expect(path).toContain("/@snippets/");
    expect(git(path, "show", "main:hello.txt")).toBe("héllo");
    expect(git(path, "ls-tree", "-r", "--name-only", "-z", "main").split("\0").filter(Boolean)).toEqual(['dir/we"ird\\name.md', "hello.txt"]);
    expect(git(path, "log", "-1", "--format=%an|%ae|%at|%s", "main")).toBe(`Al x|al@example.com|${Date.parse("2024-05-01T12:00:00Z") / 1000}|Initial commit`);
  });

  it("create refuses a taken path and leaves what is there alone", async () => {
    mkdirSync(pathOn("a"), { recursive: true });
    writeFileSync(join(pathOn("a"), "keep"), "x");
    await expect(storage.create("a", project)).rejects.toMatchObject({ reason: "exists" });
    expect(existsSync(join(pathOn("a"), "keep"))).toBe(true);
  });

  it("create with existing: move-aside moves a leftover into +orphaned, then creates", async () => {
    mkdirSync(pathOn("a"), { recursive: true });
    writeFileSync(join(pathOn("a"), "keep"), "x");
    const made = await storage.create("a", project, { existing: "move-aside" });
    expect(made.movedAside).toContain(join(dir, "a", "+orphaned"));
    expect(existsSync(join(made.movedAside ?? "", "keep"))).toBe(true);
    expect(git(pathOn("a"), "rev-parse", "--is-bare-repository")).toBe("true");
    expect(await storage.create("a", { kind: "project", id: 8 }, { existing: "move-aside" })).toEqual({});
  });

  it("a failed create leaves no directory behind", async () => {
    const broken = gitRepositoryStorage({ shards: { a: join(dir, "a") }, git: join(dir, "no-such-git") });
    await expect(broken.create("a", project)).rejects.toMatchObject({ reason: "failed" });
    expect(existsSync(pathOn("a"))).toBe(false);
    expect(readdirSync(join(dir, "a", "+tmp"))).toEqual([]);
    await expect(storage.create("a", project, { commit: { files: [{ path: "../escape", content: "" }], message: "m", author: { name: "a", email: "a@x" }, date: new Date() } })).rejects.toMatchObject({ reason: "failed" });
    expect(existsSync(pathOn("a"))).toBe(false);
    await expect(storage.create("a", project, { defaultBranch: "bad..name" })).rejects.toMatchObject({ reason: "failed" });
  });

  it("unknown shards and shards without a directory are refused with a clear reason", async () => {
    await expect(storage.create("zzz", project)).rejects.toMatchObject({ reason: "unknown_storage" });
    await expect(storage.exists("nowhere", project)).rejects.toMatchObject({ reason: "no_path", message: expect.stringContaining("repositoryStorages.nowhere.path") });
  });

  it("replicate copies refs and HEAD to another shard; checksums match; again is a no-op; the source is untouched", async () => {
    await storage.create("a", project, { defaultBranch: "dev", commit: { files: [{ path: "f", content: "1" }], message: "one", author: { name: "a", email: "a@x" }, date: new Date(0) } });
    const source = pathOn("a");
    git(source, "update-ref", "refs/tags/v1", "dev");
    await storage.replicate(project, "a", "b");
    expect(git(pathOn("b"), "symbolic-ref", "HEAD")).toBe("refs/heads/dev");
    expect(git(pathOn("b"), "show", "v1:f")).toBe("1");
    const sum = await storage.checksum("a", project);
    expect(sum).toMatch(/^[0-9a-f]{40}$/);
    expect(sum).not.toBe("0".repeat(40));
    expect(await storage.checksum("b", project)).toBe(sum);
    // Brought up to date: a ref deleted on the source is pruned on the copy.
    git(source, "update-ref", "-d", "refs/tags/v1");
    await storage.replicate(project, "a", "b");
    expect(await storage.checksum("b", project)).toBe(await storage.checksum("a", project));
    expect(git(pathOn("b"), "for-each-ref", "--format=%(refname)")).toBe("refs/heads/dev");
    expect(await storage.exists("a", project)).toBe(true);
  });

  it("replicate carries the project's uploads: copied with a new copy, and mirrored (added, replaced, removed) when an existing copy is brought up to date", async () => {
    await storage.create("a", project);
    const upload = (shard: string, secret: string, name: string) => join(pathOn(shard), "forgekit-uploads", secret, name);
    const put = (secret: string, name: string, content: string) => {
      mkdirSync(join(pathOn("a"), "forgekit-uploads", secret), { recursive: true });
      writeFileSync(upload("a", secret, name), content);
    };
    const [s1, s2, s3] = ["1".repeat(32), "2".repeat(32), "3".repeat(32)];
    put(s1, "one.png", "first");
    await storage.replicate(project, "a", "b");
    expect(readFileSync(upload("b", s1, "one.png"), "utf8")).toBe("first");
    // Later uploads on the source, one replaced, one removed: a second replication (git fetch) mirrors them.
    put(s2, "two.txt", "second");
    put(s3, "three.txt", "third");
    await storage.replicate(project, "a", "b");
    put(s3, "three.txt", "third, longer");
    rmSync(join(pathOn("a"), "forgekit-uploads", s1), { recursive: true });
    await storage.replicate(project, "a", "b");
    expect(readFileSync(upload("b", s2, "two.txt"), "utf8")).toBe("second");
    expect(readFileSync(upload("b", s3, "three.txt"), "utf8")).toBe("third, longer");
    expect(existsSync(join(pathOn("b"), "forgekit-uploads", s1))).toBe(false);
    // Copies, not links: a later write on one shard stays there.
    expect(statSync(upload("b", s2, "two.txt")).ino).not.toBe(statSync(upload("a", s2, "two.txt")).ino);
    // A source without uploads leaves none on the copy.
    rmSync(join(pathOn("a"), "forgekit-uploads"), { recursive: true });
    await storage.replicate(project, "a", "b");
    expect(existsSync(join(pathOn("b"), "forgekit-uploads"))).toBe(false);
  });

  it("replicate of an empty repository and of a missing one", async () => {
    await storage.create("a", project);
    await storage.replicate(project, "a", "b");
    expect(await storage.checksum("b", project)).toBe("0".repeat(40));
    await expect(storage.replicate({ kind: "project", id: 99 }, "a", "b")).rejects.toMatchObject({ reason: "not_found" });
    await expect(storage.replicate(project, "a", "a")).rejects.toMatchObject({ reason: "failed" });
  });

  it("the checksum changes when a commit is pushed into the repository", async () => {
    await storage.create("a", project);
    const before = await storage.checksum("a", project);
    const work = join(dir, "work");
    execFileSync("git", ["init", "--quiet", "-b", "main", work]);
    writeFileSync(join(work, "README"), "hi\n");
    const env = { PATH: process.env["PATH"], GIT_CONFIG_NOSYSTEM: "1", HOME: dir, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@x", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@x" };
    execFileSync("git", ["-C", work, "add", "README"], { env });
    execFileSync("git", ["-C", work, "commit", "--quiet", "-m", "first"], { env });
    execFileSync("git", ["-C", work, "push", "--quiet", pathOn("a"), "main"], { env });
    const after = await storage.checksum("a", project);
    expect(after).not.toBe(before);
    expect(after).toBe(refsChecksum(git(pathOn("a"), "for-each-ref", "--format=%(objectname) %(refname)")));
  });

  it("delete removes the repository and says whether there was one", async () => {
    await storage.create("a", project);
    expect(await storage.delete("a", project)).toBe(true);
    expect(existsSync(pathOn("a"))).toBe(false);
    expect(await storage.exists("a", project)).toBe(false);
    expect(await storage.delete("a", project)).toBe(false);
    expect(await storage.checksum("a", project)).toBeNull();
    expect(await storage.size("a", project)).toBeNull();
  });

  it("a git command that outlives its timeout is killed", async () => {
    const slow = join(dir, "slow-git");
    writeFileSync(slow, "#!/bin/sh\nsleep 5\n", { mode: 0o755 });
    const timed = gitRepositoryStorage({ shards: { a: join(dir, "a") }, git: slow, timeoutMs: 100 });
    const started = Date.now();
    await expect(timed.create("a", project)).rejects.toMatchObject({ reason: "failed", message: expect.stringContaining("timed out") });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(existsSync(pathOn("a"))).toBe(false);
  });
});

describe("refsChecksum", () => {
  it("ignores order and is 40 zeros without refs", () => {
    expect(refsChecksum("")).toBe("0".repeat(40));
    expect(refsChecksum("a refs/heads/x\nb refs/heads/y\n")).toBe(refsChecksum("b refs/heads/y\na refs/heads/x"));
    expect(refsChecksum("a refs/heads/x")).not.toBe(refsChecksum("a refs/heads/y"));
  });
});
