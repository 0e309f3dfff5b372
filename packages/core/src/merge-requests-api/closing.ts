/**
 * The issues a merge request closes (reference `MergeRequest#closes_issues`): for a merge request
 * into the default branch, the closing phrases of its title, description and commit messages; none
 * for another target. Merging one closes them as the merging user (`PostMergeService#close_issues`).
 * The stored relation (`cache_merge_request_closes_issues!`, ports/merge-request-closing-issues-store.ts)
 * holds them as the acting user (creator, editor, pusher) reads them, for the issue entity's `merge_requests_count` and `closed_by`.
 */
import type { Project, User } from "../accounts/types.js";
import { issuesService } from "../activity/issues.js";
import type { Issue } from "../activity/index.js";
import type { ForgekitConfig } from "../config.js";
import { closeIssuesAs, closingIssues } from "../issue-closing/index.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { listCommits } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { gitFacts } from "./git-facts.js";

/** Commits whose messages are read at most. */
const MAX_COMMITS = 1_000;

/** What a merge request's closing issues are read from: its record, or the one a create or update is about to write. */
export type ClosingSource = Pick<MergeRequestRecord, "state" | "mergeCommitSha" | "title" | "description" | "sourceBranch" | "targetBranch">;

/** The issues `mr` closes that `viewer` may read. */
export async function mergeRequestClosingIssues(config: ForgekitConfig, project: Project, repo: GitRepo | null, mr: ClosingSource, viewer: User | null): Promise<Issue[]> {
  if (project.defaultBranch === null || mr.targetBranch !== project.defaultBranch) return [];
  const refs = (await gitFacts(repo, mr)).diffRefs;
  const commits = repo === null || refs === null ? [] : await listCommits(repo, { from: [refs.head_sha], exclude: [refs.base_sha], limit: MAX_COMMITS });
  return closingIssues(config, project, viewer, [mr.title, mr.description, ...commits.map((c) => c.message)]);
}

/**
 * The issue ids to store as what `mr` closes (reference `cache_merge_request_closes_issues!`, run
 * as the acting user: only issues `author` — the creator, editor or pusher — may read), or null when `mr` is not open — a closed or merged
 * merge request keeps the rows it has. Reads the store outside any transaction: call it before the
 * transaction that writes them.
 */
export async function closingIssueIdsToStore(config: ForgekitConfig, project: Project, repo: GitRepo | null, mr: ClosingSource, author: User | null): Promise<number[] | null> {
  if (mr.state !== "opened") return null;
  return (await mergeRequestClosingIssues(config, project, repo, mr, author)).map((issue) => issue.id);
}

/**
 * The issue ids an update of `mr` by `actor` stores (reference `UpdateService` / `ReopenService`:
 * `cache_merge_request_closes_issues!(current_user)`), or null when the rows stay: the merge request
 * is not open afterwards, or neither its title, description, target branch nor state changed.
 */
export async function closingIssueIdsAfterUpdate(
  config: ForgekitConfig,
  project: Project,
  repo: GitRepo | null,
  mr: MergeRequestRecord,
  edit: { title?: string | undefined; description?: string | undefined; targetBranch?: string | undefined; state: MergeRequestRecord["state"] },
  actor: User,
): Promise<number[] | null> {
  const changed = edit.title !== undefined || edit.description !== undefined || edit.targetBranch !== undefined || edit.state !== mr.state;
  if (!changed || edit.state !== "opened") return null;
  const after: ClosingSource = { ...mr, state: edit.state, title: edit.title ?? mr.title, description: edit.description ?? mr.description, targetBranch: edit.targetBranch ?? mr.targetBranch };
  return closingIssueIdsToStore(config, project, repo, after, actor);
}

/**
 * Recomputes and stores what the open merge request `mr` closes, as the user whose action caused
 * it (the pusher of a source-branch push, the creator or reopener; reference `RefreshService`,
 * `AfterCreateService`, `ReopenService` pass their `current_user`). Outside any transaction.
 */
export async function refreshClosingIssues(config: ForgekitConfig, project: Project, repo: GitRepo | null, mr: MergeRequestRecord, actorId: number): Promise<void> {
  const ids = await closingIssueIdsToStore(config, project, repo, mr, await config.store.users.findById(actorId));
  if (ids !== null) await config.store.mergeRequestClosingIssues.replace(mr.id, ids);
}

/** After a merge: closes the issues the merge request closes, as `user`. */
export async function closeIssuesOnMerge(config: ForgekitConfig, project: Project, repo: GitRepo, user: User, mr: MergeRequestRecord): Promise<void> {
  const issues = await mergeRequestClosingIssues(config, project, repo, mr, user);
  await closeIssuesAs(config, issuesService(config), user, issues, { kind: "merge_request", project, iid: mr.iid });
}
