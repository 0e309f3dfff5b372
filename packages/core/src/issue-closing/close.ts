/**
 * Closing issues by what landed on the default branch (reference `MergeRequests::PostMergeService
 * #close_issues`, `ProcessCommitWorker#close_issues`, `Issues::CloseService` with `closed_via`):
 * each open issue the actor may update is closed as the actor with the system note
 * "closed via merge request !1" or "closed via commit <sha>" (references from the issue's project).
 */
import type { Project, User } from "../accounts/types.js";
import type { Issue, IssuesService } from "../activity/index.js";
import { canUpdateIssue, levelOn } from "../activity/routes/access.js";
import type { ForgekitConfig } from "../config.js";
import type { CommitInfo } from "../repository-api/git/reads.js";
import { closingIssues } from "./resolve.js";

/** What closed the issues: a merge request or a commit of `project`. */
export type Closer = { kind: "merge_request"; project: Project; iid: number } | { kind: "commit"; project: Project; sha: string };

/** The closer as the issue's system note names it (cross-project: with the project's path). */
export function closerReference(closer: Closer, issue: Issue): string {
  const prefix = issue.projectId === closer.project.id ? "" : closer.project.fullPath;
  return closer.kind === "merge_request" ? `merge request ${prefix}!${closer.iid}` : `commit ${prefix === "" ? "" : `${prefix}@`}${closer.sha}`;
}

/** Closes the open `issues` `actor` may update; failures are logged and skipped. */
export async function closeIssuesAs(config: ForgekitConfig, issuesService: IssuesService, actor: User, issues: readonly Issue[], closer: Closer): Promise<void> {
  const { store } = config;
  for (const issue of issues) {
    if (issue.state !== "opened") continue;
    const project = await store.projects.findById(issue.projectId);
    if (project === null) continue;
    const assignees = (await store.activity.issueDetails.assigneesOf([issue.id])).get(issue.id) ?? [];
    if (!canUpdateIssue(actor, await levelOn(store, actor, project, config.clock.now()), issue, assignees)) continue;
    const closed = await issuesService.close(issue.projectId, issue.iid, actor.id, { via: closerReference(closer, issue) });
    if (closed.isErr()) config.logger.log("warn", "issue_closing.close_failed", { issueId: issue.id, code: closed.error.code });
  }
}

/**
 * Closes what each commit pushed to the default branch says it closes, oldest commit first: as
 * the user whose e-mail is the commit's author e-mail, else as the pusher (reference
 * `ProcessCommitWorker`: `commit.author || user`).
 */
export async function closeIssuesByCommits(config: ForgekitConfig, issuesService: IssuesService, project: Project, pusher: User, commits: readonly CommitInfo[]): Promise<void> {
  for (const commit of [...commits].reverse()) {
    const email = await config.store.emails.findByEmail(commit.authorEmail);
    // Only a confirmed address names a user (reference `User.find_by_any_email(email, confirmed: true)`).
    const author = email === null || email.confirmedAt === null ? null : await config.store.users.findById(email.userId);
    const actor = author ?? pusher;
    const issues = await closingIssues(config, project, actor, [commit.message]);
    await closeIssuesAs(config, issuesService, actor, issues, { kind: "commit", project, sha: commit.id });
  }
}
