/** The public face of background jobs: a job as services return it, handlers and their context (DESIGN §6). */
import type { JobRecord, JobState } from "../ports/jobs-store.js";

/** A job as `fk.jobs` returns it (payload parsed). */
export interface Job {
  /** The job's id. */
  id: number;
  /** The job kind, which names its handler. */
  kind: string;
  /** The JSON payload it was enqueued with. */
  payload: unknown;
  /** Queued, running, or finished as succeeded, failed or cancelled. */
  state: JobState;
  /** Attempts started so far. */
  attempts: number;
  /** Attempts allowed before the job ends `failed`. */
  maxAttempts: number;
  /** When the job is due (again, after a failed attempt's backoff). */
  runAfter: Date;
  /**  null;|The message of the last failed attempt, if any. */
  lastError: string | null;
  /** Counts the handler reported, or null before its first report. */
  progress: { done: number; total: number | null } | null;
  /** Whether cancellation was asked of the running job. */
  cancelRequested: boolean;
  /** When it was enqueued. */
  createdAt: Date;
  /** When it last changed. */
  updatedAt: Date;
  /**  null;|When it succeeded, failed or was cancelled; null while unfinished. */
  finishedAt: Date | null;
}

/** What a handler gets for one attempt. */
export interface JobContext<P = unknown> {
  /** The job being run. */
  readonly job: Job;
  /** Its payload, typed as the handler expects. */
  readonly payload: P;
  /** 1 on the first attempt. */
  readonly attempt: number;
  /**
   * Aborted when the worker stops, the lease is lost or cancellation was requested: pass it to
   * long waits (fetch, child processes). A handler that ends because of it is released or
   * cancelled, not counted as a failure.
   */
  readonly signal: AbortSignal;
  /**
   * Runs one idempotent step: first renews the lease and learns whether the job was cancelled or
   * the worker is stopping (then the step does not run: the job ends `cancelled`, or returns to the
   * queue), then runs `fn`. A retried job runs its steps again, so each must be safe to repeat.
   */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Records progress (counts done / total) that `fk.jobs.find` and the CLI show. */
  progress(done: number, total?: number | null): Promise<void>;
}

/** Runs one attempt of a job; a rejection is a failure (retried with backoff up to the limit). */
export type JobHandler<P = unknown> = (ctx: JobContext<P>) => Promise<void>;

/** Retry delays: `baseMs * factor^(attempt - 1)`, capped at `maxMs`. */
export interface BackoffOptions {
  /** Delay after the first failure (default 1,000 ms). */
  baseMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** Longest delay (default one hour). */
  maxMs?: number;
}

/** How a kind of job is run. */
export interface JobKindOptions {
  /** Attempts before the job ends `failed` (default 5). */
  maxAttempts?: number;
  /** Delays between failed attempts. */
  backoff?: BackoffOptions;
}

/** The public job of a stored row; a payload that is not JSON is shown as its text. */
export function jobFromRecord(record: JobRecord): Job {
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload) as unknown;
  } catch {
    payload = record.payload;
  }
  return {
    id: record.id,
    kind: record.kind,
    payload,
    state: record.state,
    attempts: record.attempts,
    maxAttempts: record.maxAttempts,
    runAfter: record.runAfter,
    lastError: record.lastError,
    progress: record.progressDone === null ? null : { done: record.progressDone, total: record.progressTotal },
    cancelRequested: record.cancelRequested,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    finishedAt: record.finishedAt,
  };
}
