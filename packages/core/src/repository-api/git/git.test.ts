import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execGit } from "../../repositories/git-exec.js";
import { diffCommits, diffStats } from "./diffs.js";
import { entryAt, lastCommitFor, listCommits, listRefs, listTree, readBlob, resolveCommit } from "./reads.js";
import { gitRepo, type GitRepo } from "./repo.js";
import { compareAndSetRef, createCommit, deleteRef, validRefName, writeTagObject, type CommitAction } from "./writes.js";

const NEWLINE_NAME = "odd\nname.txt";
const BINARY = Buffer.from([0, 159, 146, 150, 0, 255, 10]);
const LARGE = Buffer.alloc(3 * 1024 * 1024, "x");
const who = { name: "Tester", email: "tester@example.com", date: new Date("2024-05-01T12:00:00Z") };

describe("repository git layer", () => {
  let dir: string;
  let repo: GitRepo;
  let c1: string;
  let c2: string;
  const marker = join(tmpdir(), `forgekit-injection-${process.pid}`);

  const commit = async (parent: string | null, actions: CommitAction[], message = "change") => {
    const made = await createCommit(repo, { parent, actions, message, author: who, committer: who }, (path) => (parent === null ? Promise.resolve(null) : lastCommitFor(repo, parent, path)));
    if (!("commit" in made)) throw new Error(`refused: ${JSON.stringify(made)}`);
    return made.commit;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "forgekit-git-layer-"));
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", dir]);
    repo = gitRepo(dir, { home: tmpdir() });
    c1 = await commit(null, [
      { action: "create", filePath: "a b/with space.txt", content: Buffer.from("space\n") },
      { action: "create", filePath: NEWLINE_NAME, content: Buffer.from("newline\n") },
      { action: "create", filePath: "ünïcödé/文件.md", content: Buffer.from("unicode\n") },
      { action: "create", filePath: "f*", content: Buffer.from("star\n") },
      { action: "create", filePath: "fx", content: Buffer.from("fx\n") },
      { action: "create", filePath: "bin.dat", content: BINARY },
      { action: "create", filePath: "large.txt", content: LARGE },
    ], "first");
    expect(await compareAndSetRef(repo, "refs/heads/main", c1, null)).toBe(true);
    c2 = await commit(c1, [
      { action: "move", filePath: "renamed.txt", previousPath: "a b/with space.txt" },
      { action: "chmod", filePath: "fx", executable: true },
      { action: "update", filePath: "bin.dat", content: Buffer.concat([BINARY, BINARY]) },
    ], "second\n\nbody");
    expect(await compareAndSetRef(repo, "refs/heads/main", c2, c1)).toBe(true);
    expect(await compareAndSetRef(repo, "refs/heads/feature/deep/x", c1, null)).toBe(true);
    expect(await compareAndSetRef(repo, "refs/heads/feature", c2, null)).toBe(false); // a folder of refs is in the way
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(marker, { force: true });
  });

  describe("trees", () => {
    it("lists names with spaces, newlines and unicode exactly (NUL-separated output)", async () => {
      const root = await listTree(repo, c1, "", false);
      expect(root?.map((e) => e.path)).toEqual(["a b", "bin.dat", "f*", "fx", "large.txt", NEWLINE_NAME, "ünïcödé"]);
      const deep = await listTree(repo, c1, "", true);
      expect(deep?.map((e) => e.path)).toContain("ünïcödé/文件.md");
      expect((await listTree(repo, c1, "a b", false))?.map((e) => e.name)).toEqual(["with space.txt"]);
    });

    it("a path is literal: `f*` names only itself, a missing folder is null", async () => {
      expect((await entryAt(repo, c1, "f*"))?.path).toBe("f*");
      expect(await entryAt(repo, c1, "f?")).toBeNull();
      expect((await entryAt(repo, c1, NEWLINE_NAME))?.type).toBe("blob");
      expect(await listTree(repo, c1, "nope", false)).toBeNull();
      expect(await listTree(repo, c1, "fx", false)).toBeNull();
    });
  });

  describe("blobs", () => {
    it("binary content comes back byte for byte; a blob above the limit is too_large", async () => {
      const bin = await entryAt(repo, c1, "bin.dat");
      const blob = await readBlob(repo, bin?.id ?? "", 1024);
      expect(blob !== null && blob !== "too_large" && blob.data.equals(BINARY)).toBe(true);
      const large = await entryAt(repo, c1, "large.txt");
      expect(await readBlob(repo, large?.id ?? "", 1024 * 1024)).toBe("too_large");
      expect(await readBlob(repo, "--output=/tmp/x", 1024)).toBeNull();
    });

    it("execGit stops a command printing more than maxOutputBytes", async () => {
      const large = await entryAt(repo, c1, "large.txt");
      const r = await execGit({ timeoutMs: 10_000, home: tmpdir(), maxOutputBytes: 1000 }, [`--git-dir=${dir}`, "cat-file", "blob", large?.id ?? ""]);
      expect(r.tooLarge).toBe(true);
      expect(r.stdout.length).toBe(1000);
    });
  });

  describe("revisions and refs", () => {
    it("option-looking refs are no revision and run nothing (`--upload-pack=…`, `--output=…`)", async () => {
      for (const ref of [`--upload-pack=touch ${marker}`, `--output=${marker}`, "-h", "main\n--all"]) expect(await resolveCommit(repo, ref)).toBeNull();
      expect(existsSync(marker)).toBe(false);
    });

    it("branch names with slashes resolve; a branch wins over a tag of the same name", async () => {
      expect(await resolveCommit(repo, "feature/deep/x")).toBe(c1);
      expect(await compareAndSetRef(repo, "refs/tags/main", c1, null)).toBe(true);
      expect(await resolveCommit(repo, "main")).toBe(c2);
      expect(await resolveCommit(repo, "main~1")).toBe(c1);
      expect(await deleteRef(repo, "refs/tags/main", c1)).toBe(true);
    });

    it("listRefs with names returns exact names only (no prefix or glob matches)", async () => {
      expect((await listRefs(repo, "branch")).map((r) => r.name)).toEqual(["feature/deep/x", "main"]);
      expect(await listRefs(repo, "branch", ["feature"])).toEqual([]);
      expect(await listRefs(repo, "branch", ["ma*"])).toEqual([]);
    });

    it("annotated tags carry their message and peel to the commit", async () => {
      const tag = await writeTagObject(repo, "v1", c1, "Release\n\nnotes", who);
      expect(await compareAndSetRef(repo, "refs/tags/v1", tag, null)).toBe(true);
      const [ref] = await listRefs(repo, "tag", ["v1"]);
      expect(ref).toMatchObject({ name: "v1", target: tag, commitId: c1, message: "Release\n\nnotes" });
      expect(ref?.taggedDate).toMatch(/^2024-05-01T12:00:00/);
    });

    it("branch names: slashes yes; `..`, leading dash, HEAD, control characters no", () => {
      expect(validRefName("branch", "feature/a")).toBe(true);
      for (const bad of ["a..b", "-x", "--upload-pack=x", "HEAD", "a\nb", "a b", "x.lock", ""]) expect(validRefName("branch", bad)).toBe(false);
    });

    it("compare-and-set: a stale old value loses and changes nothing", async () => {
      expect(await compareAndSetRef(repo, "refs/heads/main", c1, c1)).toBe(false);
      expect(await resolveCommit(repo, "main")).toBe(c2);
    });
  });

  describe("commits", () => {
    it("move keeps the content, chmod sets 100755, commits list newest first with messages", async () => {
      expect((await entryAt(repo, c2, "renamed.txt"))?.id).toBe((await entryAt(repo, c1, "a b/with space.txt"))?.id);
      expect(await entryAt(repo, c2, "a b/with space.txt")).toBeNull();
      expect((await entryAt(repo, c2, "fx"))?.mode).toBe("100755");
      const log = await listCommits(repo, { from: [c2], limit: 10 });
      expect(log.map((c) => [c.id, c.message])).toEqual([[c2, "second\n\nbody"], [c1, "first"]]);
      expect(log[0]).toMatchObject({ parentIds: [c1], authorName: "Tester", authorEmail: "tester@example.com" });
      expect((await listCommits(repo, { from: [c2], path: NEWLINE_NAME, limit: 10 })).map((c) => c.id)).toEqual([c1]);
    });

    it("refuses creating an existing file, updating or deleting a missing one, and a stale last_commit_id", async () => {
      const refuse = (actions: CommitAction[]) => createCommit(repo, { parent: c2, actions, message: "m", author: who, committer: who }, (p) => lastCommitFor(repo, c2, p));
      expect(await refuse([{ action: "create", filePath: "fx", content: Buffer.from("x") }])).toEqual({ reason: "file_exists", path: "fx" });
      expect(await refuse([{ action: "update", filePath: "nope", content: Buffer.from("x") }])).toEqual({ reason: "file_missing", path: "nope" });
      expect(await refuse([{ action: "delete", filePath: "nope" }])).toEqual({ reason: "file_missing", path: "nope" });
      expect(await refuse([{ action: "update", filePath: "bin.dat", content: Buffer.from("x"), lastCommitId: c1 }])).toEqual({ reason: "file_changed", path: "bin.dat" });
      expect(await refuse([{ action: "create", filePath: "ünïcödé", content: Buffer.from("x") }])).toEqual({ reason: "not_a_file", path: "ünïcödé" });
    });
  });

  describe("diffs", () => {
    it("renames, mode changes and binary files, with exact paths and modes", async () => {
      const diffs = await diffCommits(repo, c1, c2);
      const byPath = new Map(diffs.map((d) => [d.newPath, d]));
      expect(byPath.get("renamed.txt")).toMatchObject({ oldPath: "a b/with space.txt", renamedFile: true, diff: "" });
      expect(byPath.get("fx")).toMatchObject({ aMode: "100644", bMode: "100755" });
      expect(byPath.get("bin.dat")?.diff).toMatch(/^Binary files/);
      const root = await diffCommits(repo, null, c1);
      expect(root.find((d) => d.newPath === NEWLINE_NAME)).toMatchObject({ newFile: true, diff: "@@ -0,0 +1 @@\n+newline\n" });
      expect(await diffStats(repo, c1, c2)).toEqual({ additions: 0, deletions: 0, total: 0 });
    });

    it("bounded: at most maxFiles files; patches past maxPatchBytes are empty and too_large", async () => {
      expect(await diffCommits(repo, null, c1, { maxFiles: 2, maxPatchBytes: 1 << 20 })).toHaveLength(2);
      const cut = await diffCommits(repo, null, c1, { maxFiles: 100, maxPatchBytes: 64 * 1024 });
      expect(cut.find((d) => d.newPath === "large.txt")).toMatchObject({ diff: "", tooLarge: true });
      expect(cut.find((d) => d.newPath === "bin.dat")?.tooLarge).toBe(false);
    });
  });
});
