/** `fk.jobs`: define kinds, enqueue, find, list and cancel durable background jobs (DESIGN §6). */
import { errAsync, okAsync, type Result, type ResultAsync } from "neverthrow";
import { fromStore } from "../accounts/service-kit.js";
import { errors, type ForgekitError } from "../errors.js";
import { isRecordId } from "../ids.js";
import { JOB_STATES, type JobRepository, type JobState } from "../ports/jobs-store.js";
import type { Clock } from "../ports/runtime.js";
import type { JobRegistry } from "./registry.js";
import { jobFromRecord, type Job, type JobHandler, type JobKindOptions } from "./types.js";

/** Options of `fk.jobs.enqueue`. */
export interface EnqueueOptions {
  /** Not run before this instant (default now). */
  runAfter?: Date;
  /** Attempts before the job ends `failed` (default: the kind's). */
  maxAttempts?: number;
  /** While a job with this key is unfinished, enqueueing another with it is a `conflict`. */
  uniqueKey?: string;
}

/** Filters and page of `fk.jobs.list`. */
export interface JobListOptions {
  kind?: string;
  state?: JobState;
  /** 1-based (default 1). */
  page?: number;
  /** 1…100 (default 20). */
  perPage?: number;
}

/** One page of jobs from `fk.jobs.list`, with the total count. */
export interface JobPage {
  items: Job[];
  /** Null beyond 10,000 matching jobs. */
  total: number | null;
  hasNext: boolean;
}

/** `fk.jobs`: define job kinds, enqueue background jobs, look them up, list them and cancel them. */
export interface JobsService {
  /** Registers the handler of a kind (in every process that enqueues or runs it). */
  define<P>(kind: string, handler: JobHandler<P>, options?: JobKindOptions): Result<void, ForgekitError>;
  /** Queues a job of a defined kind; the payload must be JSON (at most 1 MB as text). */
  enqueue(kind: string, payload?: unknown, options?: EnqueueOptions): ResultAsync<Job, ForgekitError>;
  /** `not_found` when there is no such job. */
  find(id: number): ResultAsync<Job, ForgekitError>;
  /** Newest first. */
  list(options?: JobListOptions): ResultAsync<JobPage, ForgekitError>;
  /** Cancels a queued job at once, or asks a running one to stop at its next step; the job after. */
  cancel(id: number): ResultAsync<Job, ForgekitError>;
}

const PAYLOAD_MAX = 1_000_000;
const KEY_MAX = 191;

function payloadText(payload: unknown): string | null {
  try {
    const text = JSON.stringify(payload ?? {});
    return typeof text === "string" && text.length <= PAYLOAD_MAX ? text : null;
  } catch {
    return null;
  }
}

/** Builds `fk.jobs` over the jobs port. */
export function jobsService(deps: { jobs: JobRepository; clock: Clock; registry: JobRegistry }): JobsService {
  const { jobs, clock, registry } = deps;
  const byId = (id: number) =>
    isRecordId(id) ? fromStore(jobs.findById(id)).andThen((row) => (row === null ? errAsync(errors.notFound("Job")) : okAsync(row))) : errAsync(errors.notFound("Job"));
  return {
    define: (kind, handler, options) => registry.define(kind, handler, options),
    enqueue(kind, payload, options = {}) {
      const messages: Record<string, string[]> = {};
      const defined = registry.get(kind);
      if (defined === undefined) messages["kind"] = ["is not defined"];
      const text = payloadText(payload);
      if (text === null) messages["payload"] = [`must be JSON of at most ${PAYLOAD_MAX} characters`];
      const maxAttempts = options.maxAttempts ?? defined?.maxAttempts ?? 1;
      if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 1000) messages["max_attempts"] = ["must be an integer from 1 to 1000"];
      if (options.runAfter !== undefined && Number.isNaN(options.runAfter.getTime())) messages["run_after"] = ["must be a valid date"];
      const key = options.uniqueKey;
      if (key !== undefined && (key.length < 1 || key.length > KEY_MAX || key.includes("\0"))) messages["unique_key"] = [`must be 1-${KEY_MAX} characters without NUL`];
      if (Object.keys(messages).length > 0 || text === null) return errAsync(errors.validation(messages));
      const now = clock.now();
      return fromStore(jobs.enqueue({ kind, payload: text, maxAttempts, runAfter: options.runAfter ?? now, uniqueKey: key ?? null }, now)).andThen((row) =>
        row === null ? errAsync(errors.conflict("a job with this unique key is queued or running")) : okAsync(jobFromRecord(row)),
      );
    },
    find: (id) => byId(id).map(jobFromRecord),
    list(options = {}) {
      const page = options.page ?? 1;
      const perPage = options.perPage ?? 20;
      const messages: Record<string, string[]> = {};
      if (!Number.isInteger(page) || page < 1) messages["page"] = ["must be a positive integer"];
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) messages["per_page"] = ["must be an integer from 1 to 100"];
      if (options.state !== undefined && !(JOB_STATES as readonly string[]).includes(options.state)) messages["state"] = [`must be one of ${JOB_STATES.join(", ")}`];
      if (Object.keys(messages).length > 0) return errAsync(errors.validation(messages));
      const filter = { ...(options.kind === undefined ? {} : { kind: options.kind }), ...(options.state === undefined ? {} : { states: [options.state] }) };
      return fromStore(jobs.list(filter, { kind: "offset", page, perPage })).map((result) => ({ ...result, items: result.items.map(jobFromRecord) }));
    },
    cancel: (id) =>
      isRecordId(id)
        ? fromStore(jobs.cancel(id, clock.now())).andThen((row) => (row === null ? errAsync(errors.notFound("Job")) : okAsync(jobFromRecord(row))))
        : errAsync(errors.notFound("Job")),
  };
}
