/**
 * What a branch moving does to merge requests and issues (reference `Git::BranchPushService` →
 * `MergeRequests::RefreshService`, `ProcessCommitWorker`): every push the pushes service records
 * (git over HTTP, the commit and branch API, a host's `fk.pushes.record`) then refreshes the open
 * merge requests whose source is that branch — a new version, approvals reset when the project
 * says so — and a push to the default branch closes the issues its new commits close.
 */
import { ResultAsync } from "neverthrow";
import type { PushesService, RecordPushInput } from "../activity/index.js";
import type { ForgekitConfig } from "../config.js";
import { openMergeRequestsFrom, recordVersion } from "../merge-request-versions/index.js";
import { openProjectRepo } from "./service.js";

/** Runs the effects of one recorded branch move; failures are logged, never the push's. */
export async function afterBranchMoved(config: ForgekitConfig, input: RecordPushInput): Promise<void> {
  if ((input.refType ?? "branch") !== "branch" || input.commitTo === null || input.commitTo === undefined) return;
  const { store } = config;
  const project = await store.projects.findById(input.projectId);
  if (project === null) return;
  const repo = await openProjectRepo(config, project);
  if (repo === null) return;
  const now = config.clock.now();
  for (const mr of await openMergeRequestsFrom(store, project.id, input.ref)) {
    await recordVersion(store, repo, mr, now);
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
