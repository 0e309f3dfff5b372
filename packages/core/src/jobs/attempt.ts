/**
 * One attempt of one claimed job: runs the handler under the lease (renewed by a heartbeat and at
 * every step) and records the outcome — succeeded, failed with a retry after backoff, failed for
 * good, cancelled, or released back to the queue when the worker stops.
 */
import type { JobRecord, JobRepository, NewJobRecord } from "../ports/jobs-store.js";
import type { Clock, Logger } from "../ports/runtime.js";
import { backoffDelayMs } from "./backoff.js";
import type { JobKind } from "./registry.js";
import { jobFromRecord, type JobContext } from "./types.js";

/** Why a handler was stopped before it finished. */
type Interruption = "cancelled" | "stopping" | "lost";

/** Thrown out of `step` to unwind the handler; the attempt then records the interruption. */
class Interrupted extends Error {
  constructor(readonly reason: Interruption) {
    super(`job interrupted: ${reason}`);
    this.name = "JobInterrupted";
  }
}

export interface AttemptDeps {
  jobs: JobRepository;
  clock: Clock;
  logger: Logger;
  owner: string;
  leaseMs: number;
  heartbeatMs: number;
  /** True once the worker pool is stopping. */
  stopping(): boolean;
  /** Registers a callback run when the pool starts stopping; returns its remover. */
  onStop(fn: () => void): () => void;
  /** The job to enqueue when `record` ends (a recurring kind's next occurrence). */
  next(record: JobRecord): NewJobRecord | undefined;
}

/** What became of the attempt (for the runner's log and recurring schedule). */
export type AttemptOutcome = "succeeded" | "retry" | "failed" | "cancelled" | "released" | "lost";

const messageOf = (error: unknown): string => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // The column holds any length, but a runaway message helps nobody: keep the first 4 KiB.
  return text.length > 4096 ? `${text.slice(0, 4093)}...` : text;
};

/** Runs the handler of `kind` on the claimed `record` and stores the outcome. Never rejects. */
export async function runAttempt(deps: AttemptDeps, kind: JobKind, record: JobRecord): Promise<AttemptOutcome> {
  const { jobs, clock, owner } = deps;
  // Cancelled while its previous worker held it, and that worker died: nothing left to run.
  if (record.cancelRequested) {
    try {
      return (await jobs.acknowledgeCancel(record.id, owner, clock.now())) ? "cancelled" : "lost";
    } catch (error) {
      deps.logger.log("warn", "jobs.settle_failed", { jobId: record.id, kind: record.kind, error: messageOf(error) });
      return "lost";
    }
  }
  const controller = new AbortController();
  let interruption: Interruption | null = null;
  const interrupt = (reason: Interruption) => {
    // "lost" wins over the others: without the lease, the job is no longer ours to write.
    if (interruption === null || reason === "lost") interruption = reason;
    controller.abort(new Interrupted(reason));
  };
  const renew = async () => {
    const now = clock.now();
    const status = await jobs.extendLease(record.id, owner, new Date(now.getTime() + deps.leaseMs), now);
    if (!status.held) interrupt("lost");
    else if (status.cancelRequested) interrupt("cancelled");
  };
  const heartbeat = setInterval(() => {
    // A failed heartbeat (database briefly unavailable) is retried on the next beat; the lease
    // outlasts several beats, so one miss loses nothing.
    renew().catch((error: unknown) => deps.logger.log("warn", "jobs.heartbeat_failed", { jobId: record.id, error: messageOf(error) }));
  }, deps.heartbeatMs);
  heartbeat.unref?.();
  const removeStop = deps.onStop(() => interrupt("stopping"));
  if (deps.stopping()) interrupt("stopping");

  const ctx: JobContext = {
    job: jobFromRecord(record),
    payload: jobFromRecord(record).payload,
    attempt: record.attempts,
    signal: controller.signal,
    async step(_name, fn) {
      if (interruption === null) await renew();
      if (interruption !== null) throw new Interrupted(interruption);
      return fn();
    },
    async progress(done, total = null) {
      const now = clock.now();
      const status = await jobs.progress(record.id, owner, done, total, now);
      if (!status.held) interrupt("lost");
      else if (status.cancelRequested) interrupt("cancelled");
    },
  };

  let failure: unknown = null;
  let threw = false;
  try {
    await kind.handler(ctx);
  } catch (error) {
    threw = true;
    failure = error;
  } finally {
    clearInterval(heartbeat);
    removeStop();
  }
  // Writing the outcome is retried a few times (the database may be briefly unavailable); the
  // writes are guarded by the lease, so a repeat after a write that did land changes nothing.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await settle(deps, kind, record, threw, failure, interruption);
    } catch (error) {
      if (attempt < SETTLE_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 50 * 4 ** (attempt - 1)));
        continue;
      }
      // Still failing: the lease runs out and another claim runs the job again, which its
      // idempotent steps allow.
      deps.logger.log("warn", "jobs.settle_failed", { jobId: record.id, kind: record.kind, error: messageOf(error) });
      return "lost";
    }
  }
}

/** Tries at writing an attempt's outcome (pauses 50, 200, 800 ms between them). */
const SETTLE_ATTEMPTS = 4;

async function settle(deps: AttemptDeps, kind: JobKind, record: JobRecord, threw: boolean, failure: unknown, interruption: Interruption | null): Promise<AttemptOutcome> {
  const { jobs, clock, owner } = deps;
  const now = clock.now();
  // A handler that returned normally succeeded, even if asked to stop meanwhile (it finished).
  if (!threw) return (await jobs.complete(record.id, owner, now, deps.next(record))) ? "succeeded" : "lost";
  // A handler that threw after an interruption ended because of it (through `step`, or a wait
  // on the aborted signal): the interruption decides, not the error it surfaced as.
  if (interruption !== null) {
    switch (interruption) {
      case "lost":
        return "lost";
      case "cancelled":
        return (await jobs.acknowledgeCancel(record.id, owner, now)) ? "cancelled" : "lost";
      case "stopping":
        return (await jobs.release(record.id, owner, now)) ? "released" : "lost";
    }
  }
  const message = messageOf(failure);
  if (record.attempts >= kind.maxAttempts) {
    deps.logger.log("warn", "jobs.failed", { jobId: record.id, kind: record.kind, attempts: record.attempts, error: message });
    return (await jobs.fail(record.id, owner, message, null, now, deps.next(record))) ? "failed" : "lost";
  }
  const retryAt = new Date(now.getTime() + backoffDelayMs(record.attempts, kind.backoff));
  return (await jobs.fail(record.id, owner, message, retryAt, now)) ? "retry" : "lost";
}
