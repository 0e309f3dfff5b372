/**
 * What a merge request's entity reads from the repository: the source tip (`sha`), `diff_refs`,
 * whether it merges cleanly (`merge_status` / `detailed_merge_status`) and `changes_count`. An open
 * merge request is checked live; a merged one is read from its merge commit (first parent: the
 * target before the merge, second: the source tip that was merged).
 */
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { isDraftTitle } from "../activity/types.js";
import { OBJECT_ID } from "../repository-api/git/repo.js";
import { remembered } from "../repository-api/git/remembered.js";
import { branchCommits, mergeBase, mergeTree } from "./git-merge.js";

/** Reference `MergeRequest#merge_status` (deprecated in v5). */
export type MergeStatus = "can_be_merged" | "cannot_be_merged" | "unchecked";
/** Reference `detailed_merge_status` values forgekit can decide. */
export type DetailedMergeStatus = "mergeable" | "conflict" | "not_open" | "broken_status" | "draft_status" | "not_approved" | "discussions_not_resolved" | "ci_must_pass";

export interface GitFacts {
  sha: string | null;
  diffRefs: { base_sha: string; head_sha: string; start_sha: string } | null;
  mergeStatus: MergeStatus;
  detailedMergeStatus: DetailedMergeStatus;
  hasConflicts: boolean;
  /** Files changed between the merge base and the source tip, as a string (reference); null when unknown. */
  changesCount: string | null;
}

/** Facts of a merge request whose repository cannot be read. */
export const NO_GIT: GitFacts = { sha: null, diffRefs: null, mergeStatus: "unchecked", detailedMergeStatus: "broken_status", hasConflicts: false, changesCount: null };

function parentsOf(repo: GitRepo, commit: string): Promise<string[]> {
  return remembered(repo, "parents", [commit], async () => {
    const r = await repo.run(["rev-list", "--parents", "-n", "1", "--end-of-options", commit]);
    if (r.code !== 0) throw new Error(`git rev-list exited with ${r.code}`);
    return r.stdout.toString("utf8").trim().split(" ").slice(1).filter((id) => OBJECT_ID.test(id));
  }).catch(() => []);
}

async function changedFiles(repo: GitRepo, from: string, to: string): Promise<number | null> {
  const r = await repo.run(["diff", "--name-only", "-z", "--no-renames", "--end-of-options", from, to]);
  if (r.code !== 0) return null;
  return r.stdout.toString("utf8").split("\0").filter((s) => s !== "").length;
}

/** The merge base of `start` and `head` and the files changed from it to `head`; with `trialMerge`, whether `head` merges into `start`. */
function pairFacts(repo: GitRepo, start: string, head: string, trialMerge: boolean): Promise<{ base: string; count: number | null; merges: boolean }> {
  return remembered(repo, trialMerge ? "changes-and-merge" : "changes", [start, head], async () => {
    const base = (await mergeBase(repo, start, head)) ?? start;
    const count = await changedFiles(repo, base, head);
    const merged = trialMerge ? await mergeTree(repo, start, head) : null;
    return { base, count, merges: merged !== "conflict" && merged !== "unrelated" };
  }, (answer) => answer.count !== null);
}


/** Reads the facts of `mr` from `repo` (null repo: {@link NO_GIT}). */
export async function gitFacts(repo: GitRepo | null, mr: Pick<MergeRequestRecord, "state" | "mergeCommitSha" | "sourceBranch" | "targetBranch" | "title">): Promise<GitFacts> {
  if (repo === null) return NO_GIT;
  let start: string | null;
  let head: string | null;
  if (mr.state === "merged" && mr.mergeCommitSha !== null) {
    const parents = await parentsOf(repo, mr.mergeCommitSha);
    start = parents[0] ?? null;
    head = parents[1] ?? null;
  } else {
    const [target, source] = await branchCommits(repo, [mr.targetBranch, mr.sourceBranch]);
    start = target ?? null;
    head = source ?? null;
  }
  if (start === null || head === null) {
    const detailed = mr.state === "opened" ? "broken_status" : "not_open";
    return { ...NO_GIT, sha: head, detailedMergeStatus: detailed, mergeStatus: mr.state === "opened" ? "cannot_be_merged" : "unchecked" };
  }
  const { base, count, merges } = await pairFacts(repo, start, head, mr.state === "opened");
  let mergeStatus: MergeStatus = "can_be_merged";
  let detailed: DetailedMergeStatus = "mergeable";
  let hasConflicts = false;
  if (mr.state === "opened") {
    if (!merges) {
      mergeStatus = "cannot_be_merged";
      detailed = "conflict";
      hasConflicts = true;
    } else if (isDraftTitle(mr.title)) {
      detailed = "draft_status";
    }
  } else {
    detailed = "not_open";
  }
  return {
    sha: head,
    diffRefs: { base_sha: base, head_sha: head, start_sha: start },
    mergeStatus,
    detailedMergeStatus: detailed,
    hasConflicts,
    changesCount: count === null ? null : String(count),
  };
}
