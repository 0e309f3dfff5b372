/**
 * Storage port of durable background jobs (DESIGN §6): one row per job, claimed by a worker with a
 * lease, retried with backoff, cancellable, reporting progress. The runner (core/src/jobs/) drives
 * it; every method that touches a leased job names the lease's `owner`, and does nothing (answers
 * `false` / `null`) when that owner no longer holds the lease (it expired and another worker took
 * the job, or the job ended), so a worker that lost its lease can never overwrite the new holder.
 *
 * Time. Every method takes the caller's `now`, and the times a record shows (runAfter, lease end,
 * finishedAt) are the caller's. What makes a job due or a lease expired depends on the
 * implementation, which says so in `clock`:
 * - `"caller"` (SQL, memory): the `now` passed in decides, so an injected clock drives the queue.
 * - `"real"` (a queue engine whose leases are server-side TTLs, e.g. BullMQ on Redis): `runAfter`
 *   and `leaseUntil` are taken as durations from the `now` passed with them (`runAfter - now`,
 *   `leaseUntil - now`) and elapse in real time; moving an injected clock makes nothing due and
 *   expires no lease. The runner works unchanged on both (it computes both instants from one
 *   `now`); the conformance suite waits real time for such a target instead of moving its clock.
 */
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** Life of a job: `queued` → `running` → `succeeded` | `failed` | `cancelled` (or back to `queued` for a retry). */
export const JOB_STATES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
/** The state of a background job: queued, running, or finished as succeeded, failed or cancelled. */
export type JobState = (typeof JOB_STATES)[number];

/** A job row. */
export interface JobRecord {
  id: number;
  /** Which handler runs it (e.g. `events.prune`). */
  kind: string;
  /** The handler's input, JSON text. */
  payload: string;
  state: JobState;
  /** Claims so far (a claim after a lost lease counts; a release on graceful stop does not). */
  attempts: number;
  /** Claims allowed before the job ends `failed`. */
  maxAttempts: number;
  /** Not claimed before this instant (set to the backoff's end after a failure). */
  runAfter: Date;
  /** The worker holding the lease while `running`. */
  leaseOwner: string | null;
  /** While `running`: another worker may take the job over once this has passed. */
  leaseExpiresAt: Date | null;
  /** Message of the last failure, kept after a later success for diagnosis. */
  lastError: string | null;
  /** Progress the handler reported (counts done / total); null until it reports. */
  progressDone: number | null;
  progressTotal: number | null;
  /** Someone asked to cancel a running job: its worker stops at the next step. */
  cancelRequested: boolean;
  /**
   * While the job is unfinished (`queued` or `running`) no other job holds this key: what makes a
   * recurring job exist once however many processes schedule it. Cleared when the job ends.
   */
  uniqueKey: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When it reached `succeeded`, `failed` or `cancelled`. */
  finishedAt: Date | null;
}

/** What queueing a job takes: kind, JSON payload, attempts, when it may run and an optional unique key. */
export interface NewJobRecord {
  kind: string;
  payload: string;
  maxAttempts: number;
  runAfter: Date;
  uniqueKey?: string | null;
}

/** What a worker learns when it reports on a job it holds. */
export interface LeaseStatus {
  /** False: the lease is gone (expired and taken over, or the job ended): stop without writing. */
  held: boolean;
  /** True: stop at the next step and acknowledge with `acknowledgeCancel`. */
  cancelRequested: boolean;
}

/** A worker's request for due jobs: which kinds, how many, and the lease it takes on them. */
export interface JobClaim {
  /** The claiming worker's id (unique per worker: host, process, random). */
  owner: string;
  /** Only these kinds (the worker's handlers); empty → none. */
  kinds: readonly string[];
  /** At most this many jobs. */
  limit: number;
  now: Date;
  /** Lease end written on each claimed job. */
  leaseUntil: Date;
}

/** Filters of the job list: kind and states. */
export interface JobListFilter {
  kind?: string;
  states?: readonly JobState[];
}

/** How an implementation decides that a job is due or a lease expired (see the comment at the top). */
export type JobClock = "caller" | "real";

/**
 * The store's background jobs: enqueue, claim with a lease, extend it, record progress, complete, fail,
 * release, cancel, find and list.
 */
export interface JobRepository {
  /** `"caller"`: the passed `now` decides; `"real"`: instants are durations from `now` that elapse in real time. */
  readonly clock: JobClock;
  /**
   * Inserts a `queued` job. With a `uniqueKey` already held by an unfinished job, nothing is written
   * and the result is `null` (of racing enqueues with one key, exactly one gets a row).
   */
  enqueue(input: NewJobRecord, now: Date): Promise<JobRecord | null>;
  /**
   * Takes up to `limit` jobs of the given kinds that are due: `queued` with `runAfter <= now`, or
   * `running` with an expired lease or held by a worker whose registry heartbeat stopped (see
   * `heartbeat`: their worker died). Each taken job becomes `running` under the
   * new lease with `attempts + 1`. Oldest `runAfter` first, then id. A job is handed to exactly one
   * of any number of racing claimers (PostgreSQL and MySQL: `FOR UPDATE SKIP LOCKED`; SQLite: one
   * writer at a time). An expired (or orphaned) job that already used every attempt is not taken
   * but ends `failed` (its worker died on the last attempt).
   */
  claim(claim: JobClaim): Promise<JobRecord[]>;
  /**
   * The worker registry: records that worker `owner` is alive until `aliveUntil` (written every few
   * seconds while its pool runs). A claim takes a `running` job before its lease ends once the
   * lease owner has a registry row whose `aliveUntil` has passed (`<= now`): its heartbeat stopped,
   * so it is proven gone — a crashed process frees its jobs in seconds instead of a lease (a
   * minute). A lease owner without a row (an older worker, or one that retired) is only taken
   * over when its lease ends, and a claimer never takes over its own jobs. Also deletes rows whose
   * `aliveUntil` has passed and that hold no running job. Optional: a repository without it (a
   * queue engine whose own locks decide) frees a dead worker's jobs when their leases end.
   */
  heartbeat?(owner: string, aliveUntil: Date, now: Date): Promise<void>;
  /** Deletes worker `owner`'s registry row (its pool stopped); its still-held jobs then wait for their leases. */
  retire?(owner: string): Promise<void>;
  /** Moves the lease end of a held job to `leaseUntil` (a heartbeat). */
  extendLease(id: number, owner: string, leaseUntil: Date, now: Date): Promise<LeaseStatus>;
  /** Records progress on a held job (and extends nothing). */
  progress(id: number, owner: string, done: number, total: number | null, now: Date): Promise<LeaseStatus>;
  /**
   * Held job → `succeeded`. False when the lease was not held. With `next`, enqueues it in the same
   * transaction (a recurring job's next occurrence: its unique key passes from the finished job to
   * the next with no moment where another process could seed a second one); a `next` whose unique
   * key is held by another unfinished job is skipped.
   */
  complete(id: number, owner: string, now: Date, next?: NewJobRecord): Promise<boolean>;
  /**
   * Held job failed with `error`: back to `queued` until `retryAt`, or `failed` for good when
   * `retryAt` is null (then `next` is enqueued as with `complete`). False when the lease was not held.
   */
  fail(id: number, owner: string, error: string, retryAt: Date | null, now: Date, next?: NewJobRecord): Promise<boolean>;
  /** Held job back to `queued`, due at once, this attempt not counted (graceful stop). */
  release(id: number, owner: string, now: Date): Promise<boolean>;
  /** Held job whose cancellation was requested → `cancelled`. */
  acknowledgeCancel(id: number, owner: string, now: Date): Promise<boolean>;
  /**
   * Cancels: a `queued` job becomes `cancelled` at once; a `running` one gets `cancelRequested`
   * (its worker stops at its next step); a finished one is left as it is. The job after, or `null`.
   */
  cancel(id: number, now: Date): Promise<JobRecord | null>;
  findById(id: number): Promise<JobRecord | null>;
  /** Newest first (id descending). */
  list(filter: JobListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<JobRecord>>;
}
