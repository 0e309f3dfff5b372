/**
 * Automatic merges (`merge_when_pipeline_succeeds`, reference `AutoMerge::MergeWhenPipelineSucceedsService`):
 * a merge request whose head pipeline is still running is set to merge as the user who asked once
 * that pipeline succeeds. The status change that makes it succeed enqueues the merge job in its own
 * transaction (DESIGN §7a); a failed or cancelled pipeline aborts the automatic merge there too; a
 * push to the source branch makes it lapse (the job, or the next pipeline change, aborts it).
 */
import type { Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import type { JobHandler } from "../jobs/types.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import type { PipelineRecord } from "../ports/statuses-store.js";
import type { TransactionStore } from "../ports/store.js";
import type { PipelineListener } from "../statuses/index.js";
import { branchCommit } from "./git-merge.js";
import { mergeMergeRequest, openProjectRepo } from "./service.js";

/** The job kind that merges a merge request whose pipeline succeeded. */
export const AUTO_MERGE_JOB = "merge-requests.auto-merge";
/** Attempts of one automatic merge (a refusal ends it at once; only failures to reach storage retry). */
export const AUTO_MERGE_ATTEMPTS = 5;

/** Open merge requests from the pipeline's ref with an automatic merge, and the sha each was set for. */
async function waitingOn(tx: TransactionStore, pipeline: PipelineRecord): Promise<{ mr: MergeRequestRecord; userId: number; sha: string; since: Date }[]> {
  const open = await tx.reviews.listMergeRequests({ projectIds: [pipeline.projectId], state: "opened", sourceBranch: pipeline.ref, orderBy: "created_at", sort: "asc" }, { kind: "offset", page: 1, perPage: 100 });
  const extras = await tx.mergeRequestExtras.extras(open.items.map((mr) => mr.id));
  return open.items.flatMap((mr) => {
    const auto = extras.get(mr.id)?.autoMerge ?? null;
    return auto === null ? [] : [{ mr, userId: auto.userId, sha: auto.sha, since: auto.createdAt }];
  });
}

/** Aborts the automatic merge set for `sha` (if it still is) with the reference's system note. */
export async function abortAutoMerge(tx: TransactionStore, mr: MergeRequestRecord, userId: number, sha: string, reason: string, now: Date): Promise<void> {
  if (!(await tx.mergeRequestExtras.takeAutoMerge(mr.id, sha))) return;
  await tx.activity.notes.create({ projectId: mr.projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId: userId, body: `aborted the automatic merge because ${reason}`, system: true }, now);
}

/** Sets the automatic merge of `mr` at `sha` as `user`, with the reference's system note. */
export async function enableAutoMerge(tx: TransactionStore, mr: MergeRequestRecord, user: User, sha: string, removeSourceBranch: boolean, now: Date): Promise<void> {
  await tx.mergeRequestExtras.setAutoMerge(mr.id, { userId: user.id, sha, removeSourceBranch, createdAt: now });
  await tx.activity.notes.create({ projectId: mr.projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: `enabled an automatic merge when the pipeline for ${sha} succeeds`, system: true }, now);
}

/** Hears pipeline changes: success enqueues the merge, failure or cancellation aborts it. */
export const autoMergeOnPipeline: PipelineListener = async (tx: TransactionStore, _project: Project, pipeline: PipelineRecord, now: Date) => {
  for (const { mr, userId, sha, since } of await waitingOn(tx, pipeline)) {
    // A pipeline of another sha, made after the merge was set: the source branch moved on since.
    if (sha !== pipeline.sha) {
      if (pipeline.createdAt >= since) await abortAutoMerge(tx, mr, userId, sha, "the source branch was updated", now);
    } else if (pipeline.status === "success") {
      await tx.jobs.enqueue({ kind: AUTO_MERGE_JOB, payload: JSON.stringify({ mergeRequestId: mr.id }), maxAttempts: AUTO_MERGE_ATTEMPTS, runAfter: now, uniqueKey: `${AUTO_MERGE_JOB}:${mr.id}` }, now);
    } else if (pipeline.status === "failed" || pipeline.status === "canceled") {
      await abortAutoMerge(tx, mr, userId, pipeline.sha, pipeline.status === "failed" ? "the pipeline failed" : "the pipeline was canceled", now);
    }
  }
};

/** The handler of {@link AUTO_MERGE_JOB}: merges when the head pipeline succeeded at the sha it was set for. */
export function autoMergeJobHandler(config: ForgekitConfig): JobHandler<{ mergeRequestId: number }> {
  const { store, clock } = config;
  return async (ctx) => {
    const mr = await store.reviews.findMergeRequest(ctx.payload.mergeRequestId);
    const auto = mr === null ? null : ((await store.mergeRequestExtras.extras([mr.id])).get(mr.id) ?? null);
    if (mr === null || mr.state !== "opened" || auto?.autoMerge == null) return;
    const { userId, sha } = auto.autoMerge;
    const abort = (reason: string) => store.transaction((tx) => abortAutoMerge(tx, mr, userId, sha, reason, clock.now()));
    const project = await store.projects.findById(mr.projectId);
    const repo = project === null ? null : await openProjectRepo(config, project);
    const user = await store.users.findById(userId);
    if (project === null || repo === null || user === null) return abort("the merge request cannot be merged");
    if ((await branchCommit(repo, mr.sourceBranch)) !== sha) return abort("the source branch was updated");
    const pipeline = await store.statuses.newestPipeline(project.id, { sha, ref: mr.sourceBranch });
    if (pipeline?.status !== "success") return;
    const merged = await ctx.step("merge", () =>
      mergeMergeRequest(config, repo, project, user, mr, { sha, shouldRemoveSourceBranch: auto.autoMerge?.removeSourceBranch === true || auto.forceRemoveSourceBranch }),
    );
    if (merged.isErr()) return abort("the merge request cannot be merged");
    await store.mergeRequestExtras.takeAutoMerge(mr.id, sha);
  };
}
