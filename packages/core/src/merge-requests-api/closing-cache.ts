/**
 * The host's `fk.mergeRequests` keeping the stored closing issues (closing.ts) as the REST routes
 * do: refreshed after `create` and `reopen`, as their acting user (reference `AfterCreateService`, `ReopenService`:
 * `cache_merge_request_closes_issues!`). The routes write them inside their own transactions; the
 * host service has no repository to read, so the refresh follows its transaction.
 */
import type { ResultAsync } from "neverthrow";
import type { MergeRequestsService } from "../activity/index.js";
import type { ForgekitConfig } from "../config.js";
import type { ForgekitError } from "../errors.js";
import { refreshClosingIssues } from "./closing.js";
import { openProjectRepo } from "./service.js";

/** `service` with the closing issues of what `create` and `reopen` return refreshed; a failed refresh is logged, never the call's. */
export function withClosingIssues(config: ForgekitConfig, service: MergeRequestsService): MergeRequestsService {
  const refreshed = <T extends { id: number; projectId: number }>(result: ResultAsync<T, ForgekitError>, actorId: (mr: T) => number): ResultAsync<T, ForgekitError> =>
    result.map(async (mr) => {
      try {
        const [project, record] = await Promise.all([config.store.projects.findById(mr.projectId), config.store.reviews.findMergeRequest(mr.id)]);
        if (project !== null && record !== null) await refreshClosingIssues(config, project, await openProjectRepo(config, project), record, actorId(mr));
      } catch (error) {
        config.logger.log("error", "merge_requests.closing_issues_failed", { mergeRequestId: mr.id, message: error instanceof Error ? error.message : String(error) });
      }
      return mr;
    });
  return {
    ...service,
    create: (input) => refreshed(service.create(input), () => input.authorId),
    reopen: (projectId, iid, actorId) => refreshed(service.reopen(projectId, iid, actorId), () => actorId),
  };
}
