/** Copies and removals in worker threads: the same results as in this thread, errors carried back with their codes. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileWorkPool, NOT_FILE_OR_FOLDER } from "./file-work.js";
import { commitInto } from "../storage-moves/test-kit.js";
import { gitRepositoryStorage } from "./git-repository-storage.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-file-work-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small tree shaped like a bare repository: a loose object, a pack, refs and config. */
function tree(name: string): string {
  const root = join(dir, name);
  for (const folder of ["objects/ab", "objects/pack", "refs/heads"]) mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, "objects/ab/cdef"), "loose object");
  writeFileSync(join(root, "objects/pack/pack-1.pack"), "pack");
  writeFileSync(join(root, "refs/heads/main"), "1".repeat(40));
  writeFileSync(join(root, "config"), "[core]\n");
  return root;
}

describe("fileWorkPool", () => {
  const pool = fileWorkPool(2);

  it("copyTree links objects, copies the rest, and runs in another thread (the event loop keeps turning meanwhile)", async () => {
    const copies = Array.from({ length: 8 }, (_, i) => [tree(`src-${i}`), join(dir, `dst-${i}`)] as const);
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    await Promise.all(copies.map(([from, to]) => pool.copyTree(from, to)));
    clearInterval(ticker);
    for (const [from, to] of copies) {
      expect(statSync(join(to, "objects/ab/cdef")).ino).toBe(statSync(join(from, "objects/ab/cdef")).ino);
      expect(statSync(join(to, "objects/pack/pack-1.pack")).ino).toBe(statSync(join(from, "objects/pack/pack-1.pack")).ino);
      expect(statSync(join(to, "config")).ino).not.toBe(statSync(join(from, "config")).ino);
      expect(readFileSync(join(to, "refs/heads/main"), "utf8")).toBe("1".repeat(40));
    }
    expect(turns).toBeGreaterThan(0);
  });

  it("copyTree refuses a symlink with its code, and an existing target with the file system's", async () => {
    const from = tree("with-link");
    symlinkSync("/etc/passwd", join(from, "refs/heads/evil"));
    await expect(pool.copyTree(from, join(dir, "link-copy"))).rejects.toMatchObject({ code: NOT_FILE_OR_FOLDER });
    const plain = tree("plain");
    await expect(pool.copyTree(plain, plain)).rejects.toMatchObject({ code: "EEXIST" });
  });

  it("removeTree removes a tree and unlinks (never follows) a symlink; a missing folder is ENOENT", async () => {
    const outside = join(dir, "outside.txt");
    writeFileSync(outside, "keep me");
    const root = tree("to-remove");
    symlinkSync(outside, join(root, "refs/heads/link"));
    await pool.removeTree(root);
    expect(existsSync(root)).toBe(false);
    expect(readFileSync(outside, "utf8")).toBe("keep me");
    await expect(pool.removeTree(join(dir, "never-was"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("connectivity runs the reader in a worker: connected for a whole repository, ask-git for one missing an object", async () => {
    const bare = join(dir, "walked.git");
    execFileSync("git", ["init", "--bare", "--quiet", "-b", "main", bare]);
    commitInto(bare, 2);
    expect(await pool.connectivity(bare)).toBe("connected");
    const tree = execFileSync("git", ["--git-dir", bare, "rev-parse", "main^{tree}"], { encoding: "utf8" }).trim();
    rmSync(join(bare, "objects", tree.slice(0, 2), tree.slice(2)));
    expect(await pool.connectivity(bare)).toBe("ask-git");
  });

  it("the storage's replicate refuses a repository holding a symlink as a failed replication and leaves no copy", async () => {
    const storage = gitRepositoryStorage({ shards: { a: join(dir, "shard-a"), b: join(dir, "shard-b") } });
    const ref = { kind: "project", id: 3 } as const;
    await storage.create("a", ref);
    const source = storage.localPath?.("a", ref) ?? "";
    symlinkSync("/etc", join(source, "refs", "heads", "escape"));
    await expect(storage.replicate(ref, "a", "b")).rejects.toMatchObject({ reason: "failed" });
    expect(await storage.exists("b", ref)).toBe(false);
    expect(execFileSync("ls", ["-A", join(dir, "shard-b", "+tmp")], { encoding: "utf8" })).toBe("");
  });
});
