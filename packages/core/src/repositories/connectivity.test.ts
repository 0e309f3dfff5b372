/** The connectivity check: a missing blob, tree or commit fails it; checks sharing shells name exactly the broken repositories. */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitInto, git } from "../storage-moves/test-kit.js";
import { connectivityChecker } from "./connectivity.js";
import { gitRepositoryStorage } from "./git-repository-storage.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-connectivity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = { binary: "git", timeoutMs: 60_000, home: tmpdir() };

/** A bare repository with three commits (loose objects) and a tag. */
function template(): string {
  const bare = join(dir, "template.git");
  git(["init", "--bare", "--quiet", "-b", "main", bare]);
  commitInto(bare, 3);
  return bare;
}
const source = template();
let copies = 0;
const copyOf = () => {
  const path = join(dir, `copy-${(copies += 1)}.git`);
  cpSync(source, path, { recursive: true });
  return path;
};
/** Removes the loose object `rev` names from the repository. */
const removeObject = (bare: string, rev: string) => {
  const id = git(["--git-dir", bare, "rev-parse", rev]);
  unlinkSync(join(bare, "objects", id.slice(0, 2), id.slice(2)));
};

describe("connectivityChecker", () => {
  it.each([true, false])("passes a whole repository and fails one missing a blob, a tree or a parent commit (what a weaker check would miss first: the blob); in process first: %s", async (inProcess) => {
    const checker = connectivityChecker(options, { inProcess });
    await expect(checker.check(copyOf())).resolves.toBeUndefined();
    for (const rev of ["main:file-1.txt", "main~1^{tree}", "main~2"]) {
      const broken = copyOf();
      removeObject(broken, rev);
      await expect(checker.check(broken)).rejects.toMatchObject({ reason: "failed" });
    }
  });

  it("checks asked for together share two shells and fail exactly the broken repositories, with git's message", async () => {
    const checker = connectivityChecker(options, { shells: 2, inProcess: false });
    const paths = Array.from({ length: 6 }, copyOf);
    removeObject(paths[1] ?? "", "main:file-2.txt");
    removeObject(paths[4] ?? "", "main~1");
    const results = await Promise.allSettled(paths.map((path) => checker.check(path)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/missing blob|bad tree|missing/);
  });

  it("without a shell (Windows) each repository is checked on its own, with the same answers", async () => {
    const checker = connectivityChecker(options, { platform: "win32", inProcess: false });
    const [whole, broken] = [copyOf(), copyOf()];
    removeObject(broken, "main:file-3.txt");
    const results = await Promise.allSettled([checker.check(whole), checker.check(broken)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
  });

  it("a path a line cannot carry is checked by git on its own", async () => {
    const path = join(dir, "line\nbreak.git");
    cpSync(source, path, { recursive: true });
    await expect(connectivityChecker(options, { inProcess: false }).check(path)).resolves.toBeUndefined();
    removeObject(path, "main:file-1.txt");
    await expect(connectivityChecker(options, { inProcess: false }).check(path)).rejects.toMatchObject({ reason: "failed" });
  });

  it("a check that overruns the timeout kills its shell and is answered by git alone (here: timed out too)", async () => {
    const slow = join(dir, "slow-git");
    writeFileSync(slow, "#!/bin/sh\nexec sleep 60\n", { mode: 0o755 });
    const started = Date.now();
    await expect(connectivityChecker({ ...options, binary: slow, timeoutMs: 300 }, { inProcess: false }).check(copyOf())).rejects.toThrow(/timed out/);
    // Without the kill the check would wait out the 60 s sleep.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it("a shell idle for a second exits, and a later check starts a new one", async () => {
    const shellsNow = () => execFileSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" }).split("\n").filter((line) => line.includes("forgekit-connectivity")).length;
    // The shells of the checkers above have gone idle by now.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(shellsNow()).toBe(0);
    const checker = connectivityChecker(options, { shells: 1, inProcess: false });
    await Promise.all([checker.check(copyOf()), checker.check(copyOf()), checker.check(copyOf())]);
    expect(shellsNow()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(shellsNow()).toBe(0);
    await expect(checker.check(copyOf())).resolves.toBeUndefined();
  });
});

describe("gitRepositoryStorage replicate", () => {
  it("hard-links loose objects on one file system and copies config, refs and HEAD (a write to them never reaches the other shard)", async () => {
    const storage = gitRepositoryStorage({ shards: { a: join(dir, "s-a"), b: join(dir, "s-b") } });
    const ref = { kind: "project", id: 7 } as const;
    await storage.create("a", ref);
    const from = storage.localPath?.("a", ref) ?? "";
    commitInto(from, 2);
    await storage.replicate(ref, "a", "b");
    const to = storage.localPath?.("b", ref) ?? "";
    const blob = git(["--git-dir", from, "rev-parse", "main:file-1.txt"]);
    const objectPath = (root: string) => join(root, "objects", blob.slice(0, 2), blob.slice(2));
    expect(statSync(objectPath(to)).ino).toBe(statSync(objectPath(from)).ino);
    for (const file of ["config", "HEAD", "refs/heads/main"]) expect(statSync(join(to, file)).ino).not.toBe(statSync(join(from, file)).ino);
    git(["--git-dir", to, "update-ref", "refs/heads/main", "main~1"]);
    expect(git(["--git-dir", from, "rev-parse", "main"])).not.toBe(git(["--git-dir", to, "rev-parse", "main"]));
    // Deleting the source (a move's cleanup) leaves the copy whole.
    await storage.delete("a", ref);
    await expect(storage.verify?.("b", ref)).resolves.toBeUndefined();
  });
});
