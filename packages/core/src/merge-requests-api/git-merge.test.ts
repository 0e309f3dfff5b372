import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastCommitFor, listTree } from "../repository-api/git/reads.js";
import { gitRepo, type GitRepo } from "../repository-api/git/repo.js";
import { compareAndSetRef, createCommit, type CommitAction } from "../repository-api/git/writes.js";
import { branchCommit, mergeBase, mergeBranches, mergeTree } from "./git-merge.js";

const who = { name: "Tester", email: "tester@example.com", date: new Date("2024-05-01T12:00:00Z") };

describe("mergeBranches (git plumbing, no working tree)", () => {
  let dir: string;
  let repo: GitRepo;
  let base: string;

  const commit = async (branch: string, parent: string | null, actions: CommitAction[]) => {
    const made = await createCommit(repo, { parent, actions, message: `on ${branch}`, author: who, committer: who }, (path) => (parent === null ? Promise.resolve(null) : lastCommitFor(repo, parent, path)));
    if (!("commit" in made)) throw new Error(`refused: ${JSON.stringify(made)}`);
    const current = await branchCommit(repo, branch);
    if (!(await compareAndSetRef(repo, `refs/heads/${branch}`, made.commit, current))) throw new Error("ref moved");
    return made.commit;
  };
  const file = (filePath: string, content: string): CommitAction => ({ action: "create", filePath, content: Buffer.from(content) });
  const update = (filePath: string, content: string): CommitAction => ({ action: "update", filePath, content: Buffer.from(content) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "forgekit-merge-"));
    execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", dir]);
    repo = gitRepo(dir, { home: dir });
    base = await commit("main", null, [file("a.txt", "one\ntwo\nthree\n")]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("merges with a commit whose parents are the target and source tips, and moves only the target branch", async () => {
    const source = await commit("clean", base, [file("b.txt", "b\n")]);
    const target = await commit("main", base, [update("a.txt", "ONE\ntwo\nthree\n")]);
    const merged = await mergeBranches(repo, { sourceBranch: "clean", targetBranch: "main", message: "Merge clean", author: who });
    expect(merged.kind).toBe("merged");
    if (merged.kind !== "merged") return;
    expect(await branchCommit(repo, "main")).toBe(merged.commit);
    expect(await branchCommit(repo, "clean")).toBe(source);
    const parents = execFileSync("git", ["--git-dir", dir, "rev-list", "--parents", "-n", "1", merged.commit]).toString().trim().split(" ").slice(1);
    expect(parents).toEqual([target, source]);
    expect(((await listTree(repo, merged.commit, "", true)) ?? []).map((e) => e.path).sort()).toEqual(["a.txt", "b.txt"]);
    expect(await mergeBase(repo, target, source)).toBe(base);
  });

  it("conflicting changes → conflict, and no ref moves", async () => {
    const main = await branchCommit(repo, "main");
    await commit("clash", base, [update("a.txt", "one\nTWO\nthree\n")]);
    await commit("main", main, [update("a.txt", "ONE\n2\nthree\n")]);
    const before = await branchCommit(repo, "main");
    expect(await mergeTree(repo, before ?? "", (await branchCommit(repo, "clash")) ?? "")).toBe("conflict");
    expect(await mergeBranches(repo, { sourceBranch: "clash", targetBranch: "main", message: "m", author: who })).toEqual({ kind: "conflict" });
    expect(await branchCommit(repo, "main")).toBe(before);
  });

  it("a sha other than the source tip → sha_mismatch naming the tip; a missing branch → missing_branch", async () => {
    const tip = await commit("other", base, [file("c.txt", "c\n")]);
    expect(await mergeBranches(repo, { sourceBranch: "other", targetBranch: "main", expectedSourceSha: "f".repeat(40), message: "m", author: who })).toEqual({ kind: "sha_mismatch", sourceSha: tip });
    expect(await mergeBranches(repo, { sourceBranch: "nope", targetBranch: "main", message: "m", author: who })).toEqual({ kind: "missing_branch", branch: "nope" });
  });

  it("removes the source branch when asked, only at the merged tip", async () => {
    const merged = await mergeBranches(repo, { sourceBranch: "other", targetBranch: "main", message: "m", author: who, removeSourceBranch: true });
    expect(merged).toMatchObject({ kind: "merged", sourceRemoved: true });
    expect(await branchCommit(repo, "other")).toBeNull();
  });

  it("unrelated histories are not mergeable", async () => {
    await commit("orphan", null, [file("z.txt", "z\n")]);
    expect(await mergeBranches(repo, { sourceBranch: "orphan", targetBranch: "main", message: "m", author: who })).toEqual({ kind: "conflict" });
  });
});
