/**
 * Reading repositories without git: the in-process connectivity check says "connected" only where `git rev-list --objects --all`
 * agrees, and the object reader under it reads exactly what `git cat-file` reads — loose objects,
 * packs with deltas (offset and ref deltas), annotated tags of every kind, submodule entries.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitInto, git } from "../storage-moves/test-kit.js";
import { reading } from "./repository-reading.js";

const connectivityInProcess = reading.connectivity;
const objectReader = reading.objectReader;

const dir = mkdtempSync(join(tmpdir(), "forgekit-repository-reading-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
const fresh = () => join(dir, `r${(made += 1)}.git`);
const gitSaysConnected = (bare: string): boolean => {
  try {
    execFileSync("git", ["--no-replace-objects", `--git-dir=${bare}`, "rev-list", "--objects", "--all", "--quiet"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};
const allObjects = (bare: string): { id: string; type: string }[] =>
  git(["--git-dir", bare, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"])
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [id = "", type = ""] = line.split(" ");
      return { id, type };
    });
const reachable = (bare: string): string[] => git(["--git-dir", bare, "rev-list", "--objects", "--all"]).split("\n").filter(Boolean).map((line) => line.slice(0, 40));

/** A repository with history worth packing: a file edited a little in every commit (deltas), two branches, annotated tags of a commit, a tree, a blob and a tag, and a submodule entry. */
function richRepository(): string {
  const bare = fresh();
  git(["init", "--bare", "--quiet", "-b", "main", bare]);
  const work = mkdtempSync(join(tmpdir(), "forgekit-rich-"));
  try {
    git(["clone", "--quiet", bare, work]);
    const id = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of a file that changes a little in every commit\n`);
    for (let i = 0; i < 12; i += 1) {
      lines[i * 7] = `edited in commit ${i}\n`;
      writeFileSync(join(work, "big.txt"), lines.join(""));
      writeFileSync(join(work, `small-${i % 3}.txt`), `small ${i}\n`);
      git(["add", "."], work);
      git([...id, "commit", "--quiet", "-m", `commit ${i}`], work);
    }
    git(["checkout", "--quiet", "-b", "side", "HEAD~4"], work);
    appendFileSync(join(work, "big.txt"), "on the side branch\n");
    git([...id, "commit", "--quiet", "-am", "side"], work);
    // A submodule entry (gitlink): a commit of another repository, never looked up here.
    git(["update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},vendored`], work);
    git([...id, "commit", "--quiet", "-m", "submodule"], work);
    git([...id, "tag", "-a", "-m", "of a commit", "t-commit", "main"], work);
    git([...id, "tag", "-a", "-m", "of a tree", "t-tree", "main^{tree}"], work);
    git([...id, "tag", "-a", "-m", "of a blob", "t-blob", "main:big.txt"], work);
    git([...id, "-c", "advice.nestedTag=false", "tag", "-a", "-m", "of a tag", "t-tag", "t-commit"], work);
    git(["push", "--quiet", "origin", "main", "side", "--tags"], work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bare;
}

describe("objectReader", () => {
  it("reads every object of a loose repository and of the same repository packed with deltas exactly as git cat-file does", () => {
    const loose = richRepository();
    const packed = fresh();
    cpSync(loose, packed, { recursive: true });
    git(["--git-dir", packed, "gc", "--quiet", "--aggressive"]);
    expect(readdirSync(join(packed, "objects", "pack")).some((f) => f.endsWith(".pack"))).toBe(true);
    // The packed copy has deltas (the point of the comparison).
    expect(git(["--git-dir", packed, "verify-pack", "-v", ...readdirSync(join(packed, "objects", "pack")).filter((f) => f.endsWith(".idx")).map((f) => join(packed, "objects", "pack", f))])).toMatch(/chain length = [1-9]/);
    for (const bare of [loose, packed]) {
      const reader = objectReader(bare);
      try {
        const objects = allObjects(bare);
        expect(objects.length).toBeGreaterThan(40);
        for (const { id, type } of objects) {
          const read = reader.read(id);
          expect(read?.type, id).toBe(type);
          expect(read?.data.equals(execFileSync("git", ["--git-dir", bare, "cat-file", type, id])), `${type} ${id}`).toBe(true);
          expect(reader.has(id)).toBe(true);
        }
        expect(reader.read("0".repeat(40))).toBeNull();
        expect(reader.has("0".repeat(40))).toBe(false);
      } finally {
        reader.close();
      }
    }
  });
});

describe("connectivityInProcess", () => {
  it("says connected where git does: loose, packed, empty, unborn HEAD, detached HEAD", () => {
    const loose = richRepository();
    const packed = fresh();
    cpSync(loose, packed, { recursive: true });
    git(["--git-dir", packed, "gc", "--quiet"]);
    const empty = fresh();
    git(["init", "--bare", "--quiet", "-b", "main", empty]);
    const detached = fresh();
    cpSync(loose, detached, { recursive: true });
    writeFileSync(join(detached, "HEAD"), `${git(["--git-dir", detached, "rev-parse", "side"])}\n`);
    for (const bare of [loose, packed, empty, detached]) {
      expect(gitSaysConnected(bare)).toBe(true);
      expect(connectivityInProcess(bare)).toBe("connected");
    }
  });

  it("does not say connected once any one reachable object is gone (each of them, in turn), nor for a detached HEAD on a missing commit", () => {
    const source = fresh();
    git(["init", "--bare", "--quiet", "-b", "main", source]);
    commitInto(source, 3);
    git(["-c", "user.name=T", "-c", "user.email=t@example.com", "--git-dir", source, "tag", "-a", "-m", "annotated", "t-annotated", "main~1"]);
    const ids = reachable(source);
    expect(ids.length).toBeGreaterThan(8);
    for (const id of ids) {
      const broken = fresh();
      cpSync(source, broken, { recursive: true });
      unlinkSync(join(broken, "objects", id.slice(0, 2), id.slice(2)));
      expect(gitSaysConnected(broken), id).toBe(false);
      expect(connectivityInProcess(broken), id).toBe("ask-git");
    }
    const detached = fresh();
    cpSync(source, detached, { recursive: true });
    writeFileSync(join(detached, "HEAD"), `${"2".repeat(40)}\n`);
    expect(connectivityInProcess(detached)).toBe("ask-git");
  });

  it("leaves a truncated loose object, a pack its index does not describe and a truncated pack to git", () => {
    const source = fresh();
    git(["init", "--bare", "--quiet", "-b", "main", source]);
    commitInto(source, 2);
    const truncated = fresh();
    cpSync(source, truncated, { recursive: true });
    const commit = git(["--git-dir", truncated, "rev-parse", "main"]);
    truncateSync(join(truncated, "objects", commit.slice(0, 2), commit.slice(2)), 10);
    expect(connectivityInProcess(truncated)).toBe("ask-git");

    const packed = fresh();
    cpSync(source, packed, { recursive: true });
    git(["--git-dir", packed, "gc", "--quiet"]);
    const packFile = readdirSync(join(packed, "objects", "pack")).find((f) => f.endsWith(".pack")) ?? "";
    expect(connectivityInProcess(packed)).toBe("connected");
    appendFileSync(join(packed, "objects", "pack", packFile), "trailing bytes");
    expect(connectivityInProcess(packed)).toBe("ask-git");
    truncateSync(join(packed, "objects", "pack", packFile), 40);
    expect(connectivityInProcess(packed)).toBe("ask-git");
  });

  it("leaves alternates, shallow and sha256 repositories and repositories over the object bound to git", () => {
    const source = fresh();
    git(["init", "--bare", "--quiet", "-b", "main", source]);
    commitInto(source, 3);
    expect(connectivityInProcess(source)).toBe("connected");
    expect(connectivityInProcess(source, { maxObjects: 5 })).toBe("ask-git");
    for (const file of ["objects/info/alternates", "shallow"]) {
      const odd = fresh();
      cpSync(source, odd, { recursive: true });
      writeFileSync(join(odd, file), "");
      expect(connectivityInProcess(odd), file).toBe("ask-git");
    }
    const sha256 = fresh();
    git(["init", "--bare", "--quiet", "--object-format=sha256", sha256]);
    expect(connectivityInProcess(sha256)).toBe("ask-git");
  });
});
