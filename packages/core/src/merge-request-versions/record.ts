/**
 * Recording merge-request versions (reference `MergeRequest#create_merge_request_diff`, run by
 * `MergeRequests::CreateService` and, on every push to the source branch,
 * `MergeRequests::RefreshService#reload_merge_requests`): a version holds the source tip (head), the
 * target tip (start) and their merge base. The store keeps one row per distinct head.
 */
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { NewMergeRequestVersion } from "../ports/merge-request-versions-store.js";
import type { Store, TransactionStore } from "../ports/store.js";
import { branchCommits, mergeBase } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";

/** The three commits of a version of `source` into `target`; null when a branch is missing. */
export async function versionCommits(repo: GitRepo, sourceBranch: string, targetBranch: string): Promise<Omit<NewMergeRequestVersion, "mergeRequestId"> | null> {
  const [head, start] = await branchCommits(repo, [sourceBranch, targetBranch]);
  if (head === null || head === undefined || start === null || start === undefined) return null;
  return versionOf(repo, head, start);
}

/** The version whose source tip is `head` and target tip `start` (commit ids). */
export async function versionOf(repo: GitRepo, head: string, start: string): Promise<Omit<NewMergeRequestVersion, "mergeRequestId">> {
  return { headSha: head, startSha: start, baseSha: (await mergeBase(repo, start, head)) ?? start };
}

/** Records the version of `mr` its branches show now (nothing when a branch is missing or the head is known). */
export async function recordVersion(store: Pick<TransactionStore, "mergeRequestVersions">, repo: GitRepo | null, mr: Pick<MergeRequestRecord, "id" | "sourceBranch" | "targetBranch">, now: Date): Promise<void> {
  if (repo === null) return;
  const commits = await versionCommits(repo, mr.sourceBranch, mr.targetBranch);
  if (commits !== null) await store.mergeRequestVersions.record({ mergeRequestId: mr.id, ...commits }, now);
}

/** The open merge requests of the project whose source is `branch` (what a push to it refreshes). */
export async function openMergeRequestsFrom(store: Store, projectId: number, branch: string): Promise<MergeRequestRecord[]> {
  const out: MergeRequestRecord[] = [];
  for (let page = 1; ; page++) {
    const result = await store.reviews.listMergeRequests({ projectIds: [projectId], state: "opened", sourceBranch: branch, orderBy: "created_at", sort: "asc" }, { kind: "offset", page, perPage: 100 });
    out.push(...result.items);
    if (!result.hasNext || result.items.length === 0) return out;
  }
}
