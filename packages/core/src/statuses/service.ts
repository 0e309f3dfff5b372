/**
 * Posting a commit status (reference `Ci::CreateCommitStatusService`): the commit must exist; the
 * status joins the newest pipeline of the sha (and of `ref` / `pipeline_id` when given) or a new
 * external pipeline; the author's pending or running status of the same name and ref is updated,
 * else a new one starts and replaces (retries) the older ones of that name. The pipeline's status
 * is derived from its latest statuses in the same transaction, and whoever waits on it (automatic
 * merges) is told there too, so a job it starts commits with the status that caused it.
 */
import { err, ok, type Result } from "neverthrow";
import type { Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { CommitStatusRecord, PipelineRecord } from "../ports/statuses-store.js";
import type { TransactionStore } from "../ports/store.js";
import { resolveCommit } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { compositeStatus, isCompleted, transition, type PostedState } from "./state-machine.js";

/** What a client posts (`POST /projects/:id/statuses/:sha`). */
export interface PostStatusInput {
  sha: string;
  state: PostedState;
  ref?: string | undefined;
  name?: string | undefined;
  targetUrl?: string | undefined;
  description?: string | undefined;
  coverage?: number | undefined;
  pipelineId?: number | undefined;
}

/** Told, inside the status's transaction, when a pipeline's derived status changed. */
export type PipelineListener = (tx: TransactionStore, project: Project, pipeline: PipelineRecord, now: Date) => Promise<void>;

/** Longest `name`, `target_url` and `description` (reference validations for the first two; the description is kept as short, so every store holds it). */
const MAX_LENGTH = 255;

/** The reference's validation of the status's attributes (`commit_status.invalid?` → 400 with the messages). */
function invalid(name: string, targetUrl: string | undefined, description: string | undefined): ForgekitError | null {
  const messages: Record<string, string[]> = {};
  const tooLong = [`is too long (maximum is ${MAX_LENGTH} characters)`];
  if (name.length > MAX_LENGTH) messages["name"] = tooLong;
  if (description !== undefined && description.length > MAX_LENGTH) messages["description"] = tooLong;
  if (targetUrl !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(targetUrl);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) messages["target_url"] = ["must be a valid URL"];
    else if (targetUrl.length > MAX_LENGTH) messages["target_url"] = tooLong;
  }
  return Object.keys(messages).length === 0 ? null : errors.validation(messages);
}

/** The first branch (by name) containing the commit (reference `branch_names_contains(sha).first`). */
async function firstBranchContaining(repo: GitRepo, sha: string): Promise<string | null> {
  const r = await repo.run(["for-each-ref", "--format=%(refname:strip=2)", "--sort=refname", `--contains=${sha}`, "refs/heads/"]);
  if (r.code !== 0) return null;
  return r.stdout.toString("utf8").split("\n").find((line) => line !== "") ?? null;
}

/** Derives the pipeline's status and times from its latest statuses and stores them. */
async function refreshPipeline(tx: TransactionStore, pipeline: PipelineRecord, now: Date): Promise<PipelineRecord> {
  const latest = await tx.statuses.latestStatuses(pipeline.id);
  const status = compositeStatus(latest.map((s) => s.status));
  const started = latest.map((s) => s.startedAt?.getTime()).filter((t): t is number => t !== undefined);
  const finished = latest.map((s) => s.finishedAt?.getTime()).filter((t): t is number => t !== undefined);
  const edit = {
    status,
    startedAt: started.length === 0 ? null : new Date(Math.min(...started)),
    finishedAt: isCompleted(status) && finished.length > 0 ? new Date(Math.max(...finished)) : null,
  };
  return (await tx.statuses.updatePipeline(pipeline.id, edit, now)) ?? pipeline;
}

/** Posts a status as `user` (the caller checked Developer access). */
export async function postStatus(config: ForgekitConfig, project: Project, repo: GitRepo | null, user: User, input: PostStatusInput, onPipeline: PipelineListener): Promise<Result<CommitStatusRecord, ForgekitError>> {
  const sha = repo === null ? null : await resolveCommit(repo, input.sha);
  if (sha === null || repo === null) return err(errors.notFound("Commit"));
  const name = input.name ?? "default";
  const problem = invalid(name, input.targetUrl, input.description);
  if (problem !== null) return err(problem);
  const branch = input.ref === undefined ? await firstBranchContaining(repo, sha) : null;
  const now = config.clock.now();
  return config.store.transaction(async (tx): Promise<Result<CommitStatusRecord, ForgekitError>> => {
    const match = await tx.statuses.newestPipeline(project.id, { sha, ...(input.ref === undefined ? {} : { ref: input.ref }), ...(input.pipelineId === undefined ? {} : { id: input.pipelineId }) });
    if (input.pipelineId !== undefined && match === null) return err(errors.notFound("Pipeline for pipeline_id, sha and ref"));
    const ref = input.ref ?? match?.ref ?? branch;
    if (ref === null) return err(errors.notFound("References for commit"));
    const pipeline = match ?? (await tx.statuses.createPipeline({ projectId: project.id, sha, ref, userId: user.id }, now));
    const existing = await tx.statuses.findActiveStatus(pipeline.id, { ref, name, authorId: user.id });
    const next = transition(existing?.status ?? "created", input.state);
    if ("refused" in next) return err(errors.badRequestMessage(next.refused));
    const times = {
      status: next.state,
      startedAt: existing?.startedAt ?? (next.state === "running" ? now : null),
      finishedAt: isCompleted(next.state) ? now : null,
    };
    const details = {
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.targetUrl === undefined ? {} : { targetUrl: input.targetUrl }),
      ...(input.coverage === undefined ? {} : { coverage: input.coverage }),
    };
    const saved =
      existing === null
        ? await tx.statuses.createStatus({ projectId: project.id, pipelineId: pipeline.id, sha, ref, name, authorId: user.id, description: null, targetUrl: null, coverage: null, ...details, ...times }, now)
        : ((await tx.statuses.updateStatus(existing.id, { ...details, ...times }, now)) as CommitStatusRecord);
    const refreshed = await refreshPipeline(tx, pipeline, now);
    if (refreshed.status !== pipeline.status) await onPipeline(tx, project, refreshed, now);
    return ok(saved);
  });
}
