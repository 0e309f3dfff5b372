/**
 * A real merge in a bare repository with git plumbing, no working tree (reference
 * `MergeRequests::MergeService` on Gitaly's `UserMergeBranch`): `merge-tree --write-tree` (git ≥
 * 2.38) computes the merged tree or reports conflicts, `commit-tree` writes the merge commit with
 * the target and source tips as parents, and `update-ref <target> <new> <old>` moves the target
 * branch only if it still points where the merge started, so a concurrent push is never lost.
 */
import { compareAndSetRef, deleteRef, type Signature } from "../repository-api/git/writes.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { OBJECT_ID } from "../repository-api/git/repo.js";
import { branchCommits } from "../repository-api/git/reads.js";

export { branchCommit, branchCommits, mergeBase } from "../repository-api/git/reads.js";

/** What {@link mergeBranches} merges. */
export interface MergeInput {
  sourceBranch: string;
  targetBranch: string;
  /** The source tip the caller saw (`sha`); another tip → `sha_mismatch`. */
  expectedSourceSha?: string | undefined;
  message: string;
  author: Signature;
  /** Delete the source branch after the merge (compare-and-set on its tip). */
  removeSourceBranch?: boolean;
  /**
   * Squash the source commits into one first (reference Gitaly `UserSquash`): a commit with the
   * source tip's tree whose parent is the merge base, written as `author`, merged in its stead.
   */
  squash?: { message: string; author: Signature };
}

/** How a merge ended. */
export type MergeOutcome =
  | { kind: "merged"; commit: string; targetBefore: string; sourceSha: string; sourceRemoved: boolean; squashCommit: string | null }
  | { kind: "missing_branch"; branch: string }
  | { kind: "sha_mismatch"; sourceSha: string }
  | { kind: "conflict" }
  /** The target branch moved while the merge was made. */
  | { kind: "target_moved" };

const signatureEnv = (prefix: "AUTHOR" | "COMMITTER", s: Signature): Record<string, string> => ({
  [`GIT_${prefix}_NAME`]: s.name.replace(/[<>\n\r\0]/g, "").trim() || "unknown",
  [`GIT_${prefix}_EMAIL`]: s.email.replace(/[<>\n\r\0]/g, "").trim(),
  [`GIT_${prefix}_DATE`]: `@${Math.floor(s.date.getTime() / 1000)} +0000`,
});

/**
 * Whether `source` merges into `target` without conflicts (`merge-tree --write-tree` writes the
 * tree objects but no ref: unreachable objects the next `gc` prunes). Null when either is missing.
 */
export async function mergeTree(repo: GitRepo, target: string, source: string): Promise<{ tree: string } | "conflict" | "unrelated"> {
  const r = await repo.run(["merge-tree", "--write-tree", "--no-messages", "-z", "--end-of-options", target, source]);
  const first = r.stdout.toString("utf8").split("\0", 1)[0]?.trim() ?? "";
  if (r.code === 0 && OBJECT_ID.test(first)) return { tree: first };
  if (r.code === 1) return "conflict";
  // Exit 128 with "refusing to merge unrelated histories" (no common ancestor) and other failures.
  if (/unrelated histories/.test(r.stderr)) return "unrelated";
  throw new Error(`git merge-tree exited with ${r.code}: ${r.stderr.slice(0, 300)}`);
}

/** Merges `sourceBranch` into `targetBranch` with a merge commit (always, like the reference's default merge method). */
export async function mergeBranches(repo: GitRepo, input: MergeInput): Promise<MergeOutcome> {
  const [target, source] = await branchCommits(repo, [input.targetBranch, input.sourceBranch]);
  if (target === null || target === undefined) return { kind: "missing_branch", branch: input.targetBranch };
  if (source === null || source === undefined) return { kind: "missing_branch", branch: input.sourceBranch };
  if (input.expectedSourceSha !== undefined && input.expectedSourceSha !== source) return { kind: "sha_mismatch", sourceSha: source };
  const merged = await mergeTree(repo, target, source);
  if (merged === "conflict" || merged === "unrelated") return { kind: "conflict" };
  const env = { ...signatureEnv("AUTHOR", input.author), ...signatureEnv("COMMITTER", input.author) };
  const squashCommit = input.squash === undefined ? null : await squashOf(repo, target, source, input.squash, input.author);
  const commit = (await repo.must(["commit-tree", merged.tree, "-p", target, "-p", squashCommit ?? source, "-F", "-"], { input: input.message, env })).toString("utf8").trim();
  if (!(await compareAndSetRef(repo, `refs/heads/${input.targetBranch}`, commit, target))) return { kind: "target_moved" };
  const sourceRemoved = input.removeSourceBranch === true ? await deleteRef(repo, `refs/heads/${input.sourceBranch}`, source) : false;
  return { kind: "merged", commit, targetBefore: target, sourceSha: source, sourceRemoved, squashCommit };
}

/** The squash commit of `source` onto its merge base with `target`: the source tree, one parent, `squash.author` as author, `committer` as committer. */
async function squashOf(repo: GitRepo, target: string, source: string, squash: NonNullable<MergeInput["squash"]>, committer: Signature): Promise<string> {
  const base = (await repo.must(["merge-base", "--end-of-options", target, source])).toString("utf8").trim();
  const env = { ...signatureEnv("AUTHOR", squash.author), ...signatureEnv("COMMITTER", committer) };
  return (await repo.must(["commit-tree", `${source}^{tree}`, "-p", base, "-F", "-"], { input: squash.message, env })).toString("utf8").trim();
}
