/**
 * The issues a merge request closes (reference `MergeRequest#closes_issues`): for a merge request
 * into the default branch, the closing phrases of its title, description and commit messages; none
 * for another target. Merging one closes them as the merging user (`PostMergeService#close_issues`).
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

/** The issues `mr` closes that `viewer` may read. */
export async function mergeRequestClosingIssues(config: ForgekitConfig, project: Project, repo: GitRepo | null, mr: MergeRequestRecord, viewer: User | null): Promise<Issue[]> {
  if (project.defaultBranch === null || mr.targetBranch !== project.defaultBranch) return [];
  const refs = (await gitFacts(repo, mr)).diffRefs;
  const commits = repo === null || refs === null ? [] : await listCommits(repo, { from: [refs.head_sha], exclude: [refs.base_sha], limit: MAX_COMMITS });
  return closingIssues(config, project, viewer, [mr.title, mr.description, ...commits.map((c) => c.message)]);
}

/** After a merge: closes the issues the merge request closes, as `user`. */
export async function closeIssuesOnMerge(config: ForgekitConfig, project: Project, repo: GitRepo, user: User, mr: MergeRequestRecord): Promise<void> {
  const issues = await mergeRequestClosingIssues(config, project, repo, mr, user);
  await closeIssuesAs(config, issuesService(config), user, issues, { kind: "merge_request", project, iid: mr.iid });
}
