/**
 * What a branch moving does to merge requests and issues (reference `Git::BranchPushService` →
 * `MergeRequests::RefreshService`, `ProcessCommitWorker`): every push the pushes service records
 * (git over HTTP, the commit and branch API, a host's `fk.pushes.record`) then refreshes the open
 * merge requests whose source is that branch — a new version, the issues they close, approvals
 * reset when the project says so — and a push to the default branch closes the issues its new commits close.
 */
import { ResultAsync } from "neverthrow";
import type { PushesService, RecordPushInput } from "../activity/index.js";
import type { ForgekitConfig } from "../config.js";
import { openMergeRequestsFrom, recordVersion } from "../merge-request-versions/index.js";
import { openProjectRepo } from "./service.js";
import { refreshClosingIssues } from "./closing.js";
import { issuesService } from "../activity/issues.js";
import { closeIssuesByCommits } from "../issue-closing/index.js";
import { listCommits } from "../repository-api/git/reads.js";

/** Commits of one push whose messages may close issues, at most (the reference processes up to 100 per push). */
const MAX_CLOSING_COMMITS = 100;

/** Runs the effects of one recorded branch move; failures are logged, never the push's. */
export async function afterBranchMoved(config: ForgekitConfig, input: RecordPushInput): Promise<void> {
  if ((input.refType ?? "branch") !== "branch" || input.commitTo === null || input.commitTo === undefined) return;
  const { store } = config;
  const project = await store.projects.findById(input.projectId);
  if (project === null) return;
  const repo = await openProjectRepo(config, project);
  if (repo === null) return;
  const now = config.clock.now();
  const resetApprovals = input.commitFrom !== null && input.commitFrom !== undefined && (await store.approvals.settings(project.id)).resetApprovalsOnPush;
  for (const mr of await openMergeRequestsFrom(store, project.id, input.ref)) {
    await recordVersion(store, repo, mr, now);
    // Reference `RefreshService#cache_merge_requests_closing_issues`: new commit messages may close issues.
    await refreshClosingIssues(config, project, repo, mr, input.authorId);
    // Reference `reset_approvals_on_push`: new commits on the source branch drop the approvals given so far.
    if (resetApprovals) await store.approvals.resetApprovals(mr.id);
  }
  // Commits that land on the default branch close issues; not a new branch's whole history (the reference skips a repository's first push too).
  const from = input.commitFrom ?? null;
  if (input.ref === project.defaultBranch && from !== null) {
    const pusher = await store.users.findById(input.authorId);
    const commits = await listCommits(repo, { from: [input.commitTo], exclude: [from], limit: MAX_CLOSING_COMMITS });
    if (pusher !== null) await closeIssuesByCommits(config, issuesService(config), project, pusher, commits);
  }
}

/** `pushes` with {@link afterBranchMoved} run after each push it records. */
export function withBranchMoves(config: ForgekitConfig, pushes: PushesService): PushesService {
  return {
    record: (input) =>
      pushes.record(input).andThen((event) =>
        ResultAsync.fromSafePromise(
          afterBranchMoved(config, input).then(
            () => event,
            (error: unknown) => {
              config.logger.log("error", "merge_requests.branch_moved_failed", { projectId: input.projectId, message: error instanceof Error ? error.message : String(error) });
              return event;
            },
          ),
        ),
      ),
  };
}
