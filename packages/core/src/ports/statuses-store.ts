/**
 * Storage port of commit statuses and the external pipelines they make (DESIGN §5; reference
 * `GenericCommitStatus`, `Ci::Pipeline` with `source: external`). Reached as `Store.statuses`. A
 * pipeline exists only because a status was posted for its sha and ref; its status is derived by
 * the service from its latest statuses and stored so lists can filter on it. The general contract
 * of ports/store.ts applies: "not found" is `null`, infrastructure failures reject.
 */
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** States of a commit status (reference `HasStatus`): a new one is `created` until its first transition. */
export const COMMIT_STATUS_STATES = ["created", "pending", "running", "success", "failed", "canceled", "skipped"] as const;
/** The state of one commit status, and (composite) of a pipeline. */
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** An external pipeline: one per sha and ref the statuses were posted for. */
export interface PipelineRecord {
  id: number;
  /** Number within the project, from 1. */
  iid: number;
  projectId: number;
  sha: string;
  ref: string;
  status: CommitStatusState;
  /** Who posted the status that created it (null after the user was removed). */
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** One commit status (an external job of a pipeline). */
export interface CommitStatusRecord {
  id: number;
  projectId: number;
  pipelineId: number;
  sha: string;
  ref: string;
  name: string;
  status: CommitStatusState;
  description: string | null;
  targetUrl: string | null;
  coverage: number | null;
  /** Who posted it (null after the user was removed). */
  authorId: number | null;
  /** A later status of the same name in the pipeline replaced it (shown only with `all`). */
  retried: boolean;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** What creating a status takes. */
export type NewCommitStatus = Omit<CommitStatusRecord, "id" | "retried" | "createdAt" | "updatedAt">;
/** What a transition may change. */
export type CommitStatusEdit = Pick<CommitStatusRecord, "status" | "startedAt" | "finishedAt"> & Partial<Pick<CommitStatusRecord, "description" | "targetUrl" | "coverage">>;

/** Filters of the pipeline list (reference `GET /projects/:id/pipelines`). */
export interface PipelineListFilter {
  projectId: number;
  sha?: string;
  ref?: string;
  /** Only pipelines in one of these states. */
  statuses?: readonly CommitStatusState[];
  /** Only pipelines created by this user. */
  userId?: number;
  orderBy: "id" | "status" | "ref" | "updated_at" | "user_id";
  sort: "asc" | "desc";
}

/** Filters of a commit's statuses (reference `GET .../commits/:sha/statuses`). */
export interface CommitStatusListFilter {
  projectId: number;
  sha: string;
  ref?: string;
  name?: string;
  /** Include retried statuses. */
  all: boolean;
}

/** Pipelines and the statuses in them. */
export interface CommitStatusRepository {
  /** The newest (highest id) pipeline of the project for `sha`, optionally only of `ref` and with id `id`; null if none. */
  newestPipeline(projectId: number, match: { sha: string; ref?: string; id?: number }): Promise<PipelineRecord | null>;
  /** Creates a `created` pipeline with the project's next iid. */
  createPipeline(input: { projectId: number; sha: string; ref: string; userId: number }, now: Date): Promise<PipelineRecord>;
  /** The pipeline of the project with this id, or null. */
  findPipeline(projectId: number, id: number): Promise<PipelineRecord | null>;
  /** Sets the derived status and times; the pipeline after, or null for an unknown id. */
  updatePipeline(id: number, edit: Pick<PipelineRecord, "status" | "startedAt" | "finishedAt">, now: Date): Promise<PipelineRecord | null>;
  /** One page of the project's pipelines matching the filter, ties broken by id in the same direction. */
  listPipelines(filter: PipelineListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<PipelineRecord>>;
  /** The pending or running status of the pipeline with this ref, name and author, or null (the one a post updates). */
  findActiveStatus(pipelineId: number, match: { ref: string; name: string; authorId: number }): Promise<CommitStatusRecord | null>;
  /** Inserts a status and marks the pipeline's other statuses of the same name retried. */
  createStatus(input: NewCommitStatus, now: Date): Promise<CommitStatusRecord>;
  /** Applies a transition; the status after, or null for an unknown id. */
  updateStatus(id: number, edit: CommitStatusEdit, now: Date): Promise<CommitStatusRecord | null>;
  /** The latest (not retried) statuses of the pipeline, by id. */
  latestStatuses(pipelineId: number): Promise<CommitStatusRecord[]>;
  /** One page of the statuses posted for a commit, oldest first (by id). */
  listStatuses(filter: CommitStatusListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<CommitStatusRecord>>;
}
