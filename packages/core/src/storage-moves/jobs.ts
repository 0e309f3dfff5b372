/**
 * The background jobs of storage moves (DESIGN §6):
 *
 * - `storage_moves.move` runs one container's move (`POST /{kinds}/:id/repository_storage_moves`).
 * - `storage_moves.bulk` moves every container of a kind off a shard (`POST
 *   /{kind}_repository_storage_moves`): it schedules a move per container still on the source
 *   (skipping read-only ones, reference `ScheduleBulkRepositoryShardMovesMethods`: logged, not an
 *   error), then runs them a few at a time, reporting progress (moves ended / moves scheduled) on
 *   its job. A retry (the worker died, a step failed) schedules only containers it has no move for
 *   yet and resumes the unfinished moves where they stopped.
 */
import { ok } from "neverthrow";
import { availableParallelism } from "node:os";
import type { ForgekitConfig } from "../config.js";
import type { JobContext, JobsService } from "../jobs/index.js";
import type { JobRepository, NewJobRecord } from "../ports/jobs-store.js";
import { FINAL_STORAGE_MOVE_STATES, type StorageMove, type StorageMoveKind } from "../ports/storage-moves-store.js";
import { containerStorage } from "../repositories/locate.js";
import { MoveStepFailed, runMove, settleLatestMove, type MoveOutcome, type RunDeps } from "./run.js";
import { scheduleInTransaction } from "./schedule.js";
import { inTransaction } from "../accounts/service-kit.js";

export const STORAGE_MOVE_JOB = "storage_moves.move";
export const BULK_STORAGE_MOVE_JOB = "storage_moves.bulk";

/** Attempts of both kinds: git and filesystem failures are mostly temporary (spec "States and transitions"). */
export const STORAGE_MOVE_ATTEMPTS = 5;
const BACKOFF = { baseMs: 2_000, factor: 2, maxMs: 60_000 };

/**
 * Moves a bulk job runs at once when its payload names no number: twice the CPUs (a move waits on
 * the file system and on one git process in turn, so two per CPU keep them busy).
 */
export const defaultBulkConcurrency = (): number => availableParallelism() * 2;
/** The most moves one bulk job may run at once (each holds a few open files and a git process). */
export const MAX_BULK_CONCURRENCY = 64;
const PAGE = 500;
/** Containers scheduled per transaction: one commit for many, short enough not to hold SQLite's writer long. */
const SCHEDULE_CHUNK = 100;

export interface MovePayload {
  moveId: number;
}

export interface BulkPayload {
  kind: StorageMoveKind;
  source: string;
  /** Absent: each container goes to the default other shard. */
  destination?: string;
  /** Moves run at once (1…{@link MAX_BULK_CONCURRENCY}); absent: {@link defaultBulkConcurrency}. */
  concurrency?: number;
}

type Deps = RunDeps & Pick<ForgekitConfig, "repositoryStorages" | "defaultRepositoryStorage"> & { jobRepository: JobRepository };

/** The job row of one container's move (enqueued in the transaction that schedules it). */
export function moveJobRecord(moveId: number, now: Date): NewJobRecord {
  return { kind: STORAGE_MOVE_JOB, payload: JSON.stringify({ moveId } satisfies MovePayload), maxAttempts: STORAGE_MOVE_ATTEMPTS, runAfter: now, uniqueKey: `storage-move:${moveId}` };
}

const isLast = (ctx: JobContext) => ctx.attempt >= ctx.job.maxAttempts;

/** Registers both kinds with the instance's jobs. */
export function defineStorageMoveJobs(deps: Deps, jobs: JobsService): void {
  const options = { maxAttempts: STORAGE_MOVE_ATTEMPTS, backoff: BACKOFF };
  jobs.define<MovePayload>(STORAGE_MOVE_JOB, async (ctx) => {
    await runMove(deps, ctx.payload.moveId, { step: (name, fn) => ctx.step(name, fn), lastAttempt: isLast(ctx) });
  }, options)._unsafeUnwrap();
  jobs.define<BulkPayload>(BULK_STORAGE_MOVE_JOB, (ctx) => runBulk(deps, ctx), options)._unsafeUnwrap();
}

/** Schedules the kind's containers on the source (once each), then runs their moves. */
async function runBulk(deps: Deps, ctx: JobContext<BulkPayload>): Promise<void> {
  const { kind, source, destination } = ctx.payload;
  const jobId = ctx.job.id;
  await ctx.step("schedule", () => scheduleAll(deps, jobId, kind, source, destination));
  const moves = await deps.store.storageMoves.moves.listByJob(jobId);
  const total = moves.length;
  let done = moves.filter((m) => FINAL_STORAGE_MOVE_STATES.includes(m.state)).length;
  await ctx.progress(done, total);
  const pending = moves.filter((m) => !FINAL_STORAGE_MOVE_STATES.includes(m.state));
  const failures: MoveStepFailed[] = [];
  const outcomes: (MoveOutcome | "gone")[] = [];
  const steps = renewingAtMostEvery(ctx, RENEW_EVERY_MS);
  let reported = performance.now();
  const worker = async () => {
    for (let move = pending.shift(); move !== undefined; move = pending.shift()) {
      try {
        outcomes.push(await runMove(deps, move.id, { step: steps, lastAttempt: isLast(ctx) }));
        done += 1;
        // Progress is a write: a few per second say as much as one per move.
        if (done === total || performance.now() - reported >= PROGRESS_EVERY_MS) {
          reported = performance.now();
          await ctx.progress(done, total);
        }
      } catch (error) {
        // A step failed: the others go on; the job retries the unfinished ones afterwards.
        if (error instanceof MoveStepFailed) failures.push(error);
        else {
          pending.length = 0;
          throw error;
        }
      }
    }
  };
  const concurrency = Math.min(ctx.payload.concurrency ?? defaultBulkConcurrency(), MAX_BULK_CONCURRENCY);
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, pending.length)) }, worker));
  // Where this attempt left off, also when some moves failed (they are retried).
  if (done !== total) await ctx.progress(done, total);
  if (failures.length > 0) throw new Error(`${failures.length} of ${total} moves failed this attempt (they are retried); first: ${failures[0]?.message ?? ""}`);
  const failed = outcomes.filter((o) => o !== "finished" && o !== "gone").length;
  if (failed > 0) throw new Error(`${failed} of ${total} moves ended failed or cleanup failed`);
}

/** How often a bulk job's moves renew its lease at a step (ms): the heartbeat keeps it meanwhile. */
const RENEW_EVERY_MS = 1_000;
/** How often a bulk job records its progress (ms), and when its last move ends. */
const PROGRESS_EVERY_MS = 250;

/**
 * The job's `step` for many short moves: the lease is renewed (a write, and how a cancel or a lost
 * lease is learnt) at most once per `everyMs` of real time; the steps in between only check the
 * job's signal, which a stopping worker aborts at once. Each move still has three steps, so a
 * cancel or a lost lease stops the bulk job within about a second. `now` (ms, monotonic) is for tests.
 */
export function renewingAtMostEvery(ctx: Pick<JobContext, "signal" | "step">, everyMs: number, now: () => number = () => performance.now()): <T>(name: string, fn: () => Promise<T>) => Promise<T> {
  let renewed = Number.NEGATIVE_INFINITY;
  return (name, fn) => {
    if (!ctx.signal.aborted && now() - renewed < everyMs) return fn();
    renewed = now();
    return ctx.step(name, fn);
  };
}

/** Schedules a move for every container of `kind` on `source` that this job has none for yet. */
async function scheduleAll(deps: Deps, jobId: number, kind: StorageMoveKind, source: string, destination: string | undefined): Promise<void> {
  const { store, clock, logger } = deps;
  const already = new Set((await store.storageMoves.moves.listByJob(jobId)).map((m: StorageMove) => m.containerId));
  // Snippets and groups made before their storage was recorded: record it (looking on the shards) first.
  if (kind !== "project") {
    for (let after = 0; ; ) {
      const ids = await store.storageMoves.containers.listIds(kind, null, after, PAGE);
      if (ids.length === 0) break;
      for (const id of ids) {
        const found = await containerStorage(deps, store, kind, id);
        if (found.isErr() && found.error.code !== "not_found") throw new Error(`could not locate the repository of ${kind} ${id}: ${found.error.code}`, { cause: found.error });
      }
      // Paged by id: those without a repository anywhere stay unrecorded, behind `after`.
      after = ids[ids.length - 1] ?? after;
    }
  }
  for (let after = 0; ; ) {
    const ids = await store.storageMoves.containers.listIds(kind, source, after, PAGE);
    if (ids.length === 0) break;
    const todo = ids.filter((id) => !already.has(id));
    // A container left read-only by a move whose job died is settled first (then it is writable again).
    for (const id of todo) await settleLatestMove(deps, deps.jobRepository, kind, id);
    for (let start = 0; start < todo.length; start += SCHEDULE_CHUNK) {
      const chunk = todo.slice(start, start + SCHEDULE_CHUNK);
      // One transaction per chunk. A container that cannot be scheduled is refused before anything
      // of it is written, so the others of its chunk go on (reference: logged and skipped).
      const skipped: { containerId: number; error: string }[] = [];
      const scheduled = await inTransaction(store, async (tx) => {
        for (const id of chunk) {
          const one = await scheduleInTransaction(deps, tx, kind, id, { source, destination, job: { id: jobId } }, clock.now());
          if (one.isErr()) skipped.push({ containerId: id, error: JSON.stringify(one.error.code === "validation" ? one.error.messages : one.error.code) });
        }
        return ok(undefined);
      });
      if (scheduled.isErr()) throw new Error(`could not schedule ${kind} moves: ${scheduled.error.code}`, { cause: scheduled.error });
      for (const skip of skipped) logger.log("info", "storage_moves.bulk_skipped", { jobId, kind, ...skip });
    }
    after = ids[ids.length - 1] ?? after;
  }
}
