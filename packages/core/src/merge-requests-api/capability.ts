/**
 * Merge requests with the commit statuses they wait on: the merge-request routes, the status and
 * pipeline routes (whose pipeline changes drive automatic merges), and the automatic-merge job.
 */
import type { ForgekitConfig } from "../config.js";
import type { AnyRoute } from "../http/router.js";
import type { JobsService } from "../jobs/service.js";
import { statusRoutes } from "../statuses/index.js";
import { AUTO_MERGE_ATTEMPTS, AUTO_MERGE_JOB, autoMergeJobHandler, autoMergeOnPipeline } from "./auto-merge.js";
import { mergeRequestRoutes } from "./routes.js";
import { mergeRequestVersionRoutes } from "../merge-request-versions/index.js";
import { closingIssuesRoutes } from "./routes-closing.js";
import { milestoneMergeRequestRoutes } from "./routes-milestone.js";
import { commitMergeRequestRoutes } from "./routes-commit.js";
import { mergeRequestApprovalRoutes, projectApprovalRoutes } from "../approvals/index.js";
import { gitFacts } from "./git-facts.js";

export { withBranchMoves } from "./branch-moves.js";
export { withClosingIssues } from "./closing-cache.js";

/** Defines the automatic-merge job kind on `jobs` and returns the routes. */
export function mergeRequestsCapability(config: ForgekitConfig, deps: { jobs: JobsService }): AnyRoute[] {
  const defined = deps.jobs.define(AUTO_MERGE_JOB, autoMergeJobHandler(config), { maxAttempts: AUTO_MERGE_ATTEMPTS, backoff: { baseMs: 5_000, maxMs: 10 * 60_000 } });
  if (defined.isErr()) throw new Error(`merge requests: job kind refused (${defined.error.code})`);
  return [...mergeRequestRoutes(config), ...mergeRequestVersionRoutes(config), ...closingIssuesRoutes(config), ...milestoneMergeRequestRoutes(config), ...commitMergeRequestRoutes(config), ...mergeRequestApprovalRoutes(config, { mergeStatus: async (_project, repo, mr) => (await gitFacts(repo, mr)).mergeStatus }), ...projectApprovalRoutes(config), ...statusRoutes(config, autoMergeOnPipeline)];
}
