/** The storage's in-process ref reading agrees with `git for-each-ref`, and `verify` finds a broken repository. */
import { mkdtempSync, rmSync, unlinkSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitRepositoryStorage, refsChecksum } from "../repositories/git-repository-storage.js";
import { reading } from "../repositories/repository-reading.js";

const readRefFiles = reading.readRefFiles;
import { commitInto, git } from "./test-kit.js";

const dir = mkdtempSync(join(tmpdir(), "forgekit-ref-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const forEachRef = (bare: string) => git(["--git-dir", bare, "for-each-ref", "--format=%(objectname) %(refname)"]);
const sorted = (text: string | null) => (text ?? "").split("\n").filter(Boolean).sort().join("\n");

describe("readRefFiles", () => {
  it("lists what git for-each-ref lists, with loose refs, packed refs, annotated tags and a loose ref shadowing a packed one", async () => {
    const bare = join(dir, "a.git");
    git(["init", "--bare", "--quiet", "-b", "main", bare]);
    commitInto(bare, 2);
    git(["-c", "user.name=T", "-c", "user.email=t@example.com", "--git-dir", bare, "tag", "-a", "-m", "annotated", "v-annotated", "main"]);
    git(["--git-dir", bare, "pack-refs", "--all"]);
    commitInto(bare, 3, "other");
    git(["--git-dir", bare, "update-ref", "refs/heads/main", "refs/heads/other"]);
    const read = readRefFiles(bare);
    expect(read).not.toBeNull();
    expect(sorted(read)).toBe(sorted(forEachRef(bare)));
    expect(refsChecksum(read ?? "")).toBe(refsChecksum(forEachRef(bare)));
  });

  it("asks git (null) for a symbolic ref under refs/", async () => {
    const bare = join(dir, "b.git");
    git(["init", "--bare", "--quiet", "-b", "main", bare]);
    commitInto(bare, 1);
    git(["--git-dir", bare, "symbolic-ref", "refs/heads/alias", "refs/heads/main"]);
    expect(readRefFiles(bare)).toBeNull();
  });
});

describe("gitRepositoryStorage verify and replicate by copy", () => {
  it("a replicated copy verifies; a copy missing an object does not", async () => {
    const storage = gitRepositoryStorage({ shards: { a: join(dir, "s-a"), b: join(dir, "s-b") } });
    const ref = { kind: "project", id: 1 } as const;
    await storage.create("a", ref);
    commitInto(storage.localPath?.("a", ref) ?? "", 2);
    await storage.replicate(ref, "a", "b");
    expect(await storage.checksum("b", ref)).toBe(await storage.checksum("a", ref));
    await expect(storage.verify?.("b", ref)).resolves.toBeUndefined();
    await expect(storage.verify?.("b", { kind: "project", id: 2 })).rejects.toMatchObject({ reason: "not_found" });
    // Remove one loose object of the copy: its history is no longer whole.
    const objects = join(storage.localPath?.("b", ref) ?? "", "objects");
    const fanout = readdirSync(objects).find((name) => /^[0-9a-f]{2}$/.test(name)) ?? "";
    const [object] = readdirSync(join(objects, fanout));
    unlinkSync(join(objects, fanout, object ?? ""));
    await expect(storage.verify?.("b", ref)).rejects.toMatchObject({ reason: "failed" });
    // The source was never touched.
    await expect(storage.verify?.("a", ref)).resolves.toBeUndefined();
  });
});
