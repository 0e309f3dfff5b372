/**
 * forgekit's jobs port (JobRepository, @forgekit/core ports/jobs-store.ts) on BullMQ: one BullMQ
 * queue per job kind queues the jobs (delayed jobs for run-after and retry backoff), a claim is
 * `Worker#getNextJob(owner)` (BullMQ moves the job to active under a lock whose token is the lease
 * owner), the lease is that lock's TTL, and finishing moves the job on (`moveToCompleted`,
 * `moveToFailed`, `moveToDelayed`, `moveToWait`). The job's record — what `fk.jobs` shows, with
 * attempts, progress, cancellation, unique key — is a Redis hash next to BullMQ's keys, changed by
 * small Lua scripts (scripts.ts) that check the lock, so a worker that lost its lease writes
 * nothing. Leases and due times run on real time (`clock: "real"`).
 */
import type { JobClaim, JobListFilter, JobRecord, JobRepository, JobState, LeaseStatus, NewJobRecord, OffsetPageRequest, OffsetPageResult } from "@forgekit/core";
import { Job, Queue, Worker } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { CANCEL, CLAIMED, ENQUEUE, EXTEND, PROGRESS, RECOVER, SETTLE } from "./scripts.js";

/** Options of {@link bullmqJobs}. */
export interface BullmqJobsOptions {
  /**
   * The Redis server: a URL (`redis://host:6379/0`), ioredis options, or an ioredis client (which
   * then must have `maxRetriesPerRequest: null`, as BullMQ requires; it is not closed by `close()`).
   */
  connection: string | RedisOptions | Redis;
  /** Prefix of every key (default `forgekit`): the BullMQ queues are `<prefix>:bull:<kind>`, the job records `<prefix>:jobs:*`. */
  prefix?: string;
  /**
   * A job is written in two steps (its record, then its BullMQ job); when the process dies in
   * between, a later claim adds the missing BullMQ job once the record is this old (default 30,000 ms).
   */
  repairAfterMs?: number;
}

/** A JobRepository on BullMQ, with `close()` for its connections. */
export interface BullmqJobRepository extends JobRepository {
  readonly clock: "real";
  /** Closes the queues, the claiming workers and (when this package opened it) the Redis connection. */
  close(): Promise<void>;
}

/** Numbers of records above which list totals are not counted (as the SQL store: spec "Limits"). */
const TOTAL_COUNT_LIMIT = 10_000;
const LOST_LEASE_ERROR = "the worker running the last attempt stopped without finishing it (lease expired)";

const STATES: readonly string[] = ["queued", "running", "succeeded", "failed", "cancelled"];

const bullId = (id: number): string => `j${id}`;

function recordOf(id: number, hash: Record<string, string>): JobRecord | null {
  const state = hash["state"];
  if (state === undefined || !STATES.includes(state)) return null;
  const num = (key: string): number | null => (hash[key] === undefined || hash[key] === "" ? null : Number(hash[key]));
  const date = (key: string): Date | null => {
    const ms = num(key);
    return ms === null ? null : new Date(ms);
  };
  return {
    id,
    kind: hash["kind"] ?? "",
    payload: hash["payload"] ?? "{}",
    state: state as JobState,
    attempts: num("attempts") ?? 0,
    maxAttempts: num("maxAttempts") ?? 1,
    runAfter: date("runAfter") ?? new Date(0),
    leaseOwner: hash["leaseOwner"] ?? null,
    leaseExpiresAt: date("leaseExpiresAt"),
    lastError: hash["lastError"] ?? null,
    progressDone: num("progressDone"),
    progressTotal: num("progressTotal"),
    cancelRequested: hash["cancelRequested"] === "1",
    uniqueKey: hash["uniqueKey"] ?? null,
    createdAt: date("createdAt") ?? new Date(0),
    updatedAt: date("updatedAt") ?? new Date(0),
    finishedAt: date("finishedAt"),
  };
}

/** Job options of every BullMQ job: finished jobs leave BullMQ (their record stays). */
const JOB_OPTIONS = { removeOnComplete: true, removeOnFail: true } as const;

/**
 * Builds the repository; pass it to `createForgekit({ store, jobs })`. Opens one Redis connection
 * at once, and per job kind a BullMQ queue and a claiming worker (each with its own connection)
 * when first used.
 */
export function bullmqJobs(options: BullmqJobsOptions): BullmqJobRepository {
  const prefix = options.prefix ?? "forgekit";
  if (!/^[^\s:]+$/.test(prefix)) throw new Error(`bullmqJobs: prefix must be a non-empty word without spaces or ':' (got ${JSON.stringify(prefix)})`);
  const given = options.connection;
  // A client by its methods, not instanceof: the host's ioredis may be another copy of the package.
  const isClient = typeof given === "object" && typeof (given as Partial<Redis>).duplicate === "function" && typeof (given as Partial<Redis>).evalsha === "function";
  const owned = !isClient;
  const client: Redis = isClient
    ? (given as Redis)
    : typeof given === "string"
      ? new Redis(given, { maxRetriesPerRequest: null })
      : new Redis({ ...(given as RedisOptions), maxRetriesPerRequest: null });
  const records = `${prefix}:jobs`;
  const bullPrefix = `${prefix}:bull`;
  const queues = new Map<string, Queue>();
  const workers = new Map<string, Worker>();
  let closed = false;
  let lastSweep = 0;
  const repairAfterMs = options.repairAfterMs ?? 30_000;

  const queue = (kind: string): Queue => {
    let q = queues.get(kind);
    if (q === undefined) {
      q = new Queue(kind, { connection: client, prefix: bullPrefix });
      queues.set(kind, q);
    }
    return q;
  };
  const worker = (kind: string): Worker => {
    let w = workers.get(kind);
    if (w === undefined) {
      // No processor and no run loop: claims call getNextJob; leases are renewed by the runner.
      w = new Worker(kind, null, { connection: client, prefix: bullPrefix, autorun: false, skipStalledCheck: true, skipLockRenewal: true });
      workers.set(kind, w);
    }
    return w;
  };
  const keysOf = (kind: string, id: number) => {
    const q = queue(kind);
    const jobKey = q.toKey(bullId(id));
    return { q, jobKey, lockKey: `${jobKey}:lock` };
  };
  const run = async (lua: string, ...args: (string | number)[]): Promise<unknown> => client.eval(lua, 0, records, ...args.map(String));
  const fetch = async (id: number): Promise<JobRecord | null> => recordOf(id, await client.hgetall(`${records}:job:${id}`));
  const kindOf = async (id: number): Promise<string | null> => client.hget(`${records}:job:${id}`, "kind");

  /** Adds the BullMQ job of a created record (idempotent: a job id is added once). */
  const addToQueue = async (id: number, kind: string, delayMs: number): Promise<void> => {
    await queue(kind).add(kind, {}, { ...JOB_OPTIONS, jobId: bullId(id), delay: Math.max(0, delayMs) });
    await client.zrem(`${records}:pending`, String(id));
  };

  /** Records whose BullMQ job was never added (their creator died in between): added now. */
  const sweepPending = async (): Promise<void> => {
    if (Date.now() - lastSweep < repairAfterMs / 3) return;
    lastSweep = Date.now();
    const [seconds, micros] = await client.time();
    const serverNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const stale = await client.zrangebyscore(`${records}:pending`, "-inf", serverNow - repairAfterMs, "LIMIT", 0, 100);
    for (const text of stale) {
      const id = Number(text);
      const [state, kind, delay, queuedAt] = await client.hmget(`${records}:job:${id}`, "state", "kind", "delay", "queuedAt");
      if (state === "queued" && typeof kind === "string") await addToQueue(id, kind, Number(queuedAt) + Number(delay) - serverNow);
      else await client.zrem(`${records}:pending`, text);
    }
  };

  /** Jobs of `kind` whose lease ran out with nobody finishing them: back to the queue, or failed after the last attempt. */
  const recover = async (kind: string, now: Date): Promise<void> => {
    const q = queue(kind);
    await run(RECOVER, q.keys["active"] ?? "", q.keys["wait"] ?? "", q.keys["stalled"] ?? "", q.keys["marker"] ?? "", q.toKey(""), now.getTime(), LOST_LEASE_ERROR);
  };

  /** Tells BullMQ an attempt ended; a failure only leaves the job active without a lock, which a claim's recovery drops. */
  const afterSettle = async (kind: string, id: number, move: (job: Job) => Promise<unknown>): Promise<void> => {
    try {
      const job = await Job.fromId(queue(kind), bullId(id));
      if (job !== undefined) await move(job);
    } catch {
      // Lease lost between the record's update and this move, or Redis gone: recovery cleans up.
    }
  };

  const settle = async (id: number, owner: string, now: Date, action: "complete" | "fail" | "retry" | "release" | "cancel", error: string, retryAt: Date | null, next?: NewJobRecord): Promise<boolean> => {
    const kind = await kindOf(id);
    if (kind === null) return false;
    const { lockKey } = keysOf(kind, id);
    const nextArgs = next === undefined ? ["0", "", "", "", "", "", ""] : ["1", next.kind, next.payload, next.maxAttempts, next.runAfter.getTime(), next.uniqueKey ?? "", next.runAfter.getTime() - now.getTime()];
    const [status, nextId] = (await run(SETTLE, id, owner, lockKey, now.getTime(), action, error, retryAt?.getTime() ?? "", ...nextArgs)) as [number, number];
    if (status !== 1) return false;
    if (next !== undefined && nextId > 0) await addToQueue(nextId, next.kind, next.runAfter.getTime() - now.getTime());
    switch (action) {
      case "complete":
      case "cancel":
        await afterSettle(kind, id, (job) => job.moveToCompleted(null, owner, false));
        break;
      case "fail":
        await afterSettle(kind, id, (job) => job.moveToFailed(new Error(error), owner, false));
        break;
      case "retry":
        await afterSettle(kind, id, (job) => job.moveToDelayed(Date.now() + Math.max(0, (retryAt?.getTime() ?? now.getTime()) - now.getTime()), owner));
        break;
      case "release":
        await afterSettle(kind, id, (job) => job.moveToWait(owner));
        break;
    }
    return true;
  };

  const leaseStatus = (reply: unknown): LeaseStatus => {
    const [held, cancel] = reply as [number, number];
    return { held: held === 1, cancelRequested: held === 1 && cancel === 1 };
  };

  const repository: BullmqJobRepository = {
    clock: "real",
    async enqueue(input, now) {
      const delay = input.runAfter.getTime() - now.getTime();
      const id = Number(await run(ENQUEUE, input.kind, input.payload, input.maxAttempts, input.runAfter.getTime(), input.uniqueKey ?? "", now.getTime(), delay));
      if (id === 0) return null;
      await addToQueue(id, input.kind, delay);
      return fetch(id);
    },
    async claim(claim: JobClaim) {
      if (claim.limit < 1 || claim.kinds.length === 0) return [];
      await sweepPending();
      const leaseMs = Math.max(1, claim.leaseUntil.getTime() - claim.now.getTime());
      const taken: JobRecord[] = [];
      for (const kind of claim.kinds) {
        await recover(kind, claim.now);
        const w = worker(kind);
        const q = queue(kind);
        while (taken.length < claim.limit) {
          const job = await w.getNextJob(claim.owner, { block: false });
          if (job === undefined || job.id === undefined) break;
          const id = Number(job.id.slice(1));
          const jobKey = q.toKey(job.id);
          const outcome = await run(CLAIMED, id, claim.owner, `${jobKey}:lock`, leaseMs, claim.leaseUntil.getTime(), claim.now.getTime(), q.keys["active"] ?? "", q.keys["stalled"] ?? "", jobKey);
          if (outcome !== "ok") continue;
          const record = await fetch(id);
          if (record !== null) taken.push(record);
        }
        if (taken.length >= claim.limit) break;
      }
      return taken;
    },
    async extendLease(id, owner, leaseUntil, now) {
      const kind = await kindOf(id);
      if (kind === null) return { held: false, cancelRequested: false };
      const { q, lockKey } = keysOf(kind, id);
      return leaseStatus(await run(EXTEND, id, owner, lockKey, Math.max(1, leaseUntil.getTime() - now.getTime()), leaseUntil.getTime(), now.getTime(), q.keys["stalled"] ?? ""));
    },
    async progress(id, owner, done, total, now) {
      const kind = await kindOf(id);
      if (kind === null) return { held: false, cancelRequested: false };
      const { lockKey } = keysOf(kind, id);
      return leaseStatus(await run(PROGRESS, id, owner, lockKey, done, total ?? "", now.getTime()));
    },
    complete: (id, owner, now, next) => settle(id, owner, now, "complete", "", null, next),
    fail: (id, owner, error, retryAt, now, next) => (retryAt === null ? settle(id, owner, now, "fail", error, null, next) : settle(id, owner, now, "retry", error, retryAt)),
    release: (id, owner, now) => settle(id, owner, now, "release", "", null),
    acknowledgeCancel: (id, owner, now) => settle(id, owner, now, "cancel", "", null),
    async cancel(id, now) {
      const before = String(await run(CANCEL, id, now.getTime()));
      if (before === "") return null;
      if (before === "queued") {
        const kind = await kindOf(id);
        // A job a claimer is taking right now cannot be removed: its claim drops it (the record ended).
        if (kind !== null) await queue(kind).remove(bullId(id)).catch(() => 0);
      }
      return fetch(id);
    },
    findById: (id) => fetch(id),
    async list(filter: JobListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<JobRecord>> {
      if (filter.states !== undefined && filter.states.length === 0) return { items: [], total: 0, hasNext: false };
      const skip = (page.page - 1) * page.perPage;
      const items: JobRecord[] = [];
      let matched = 0;
      let hasNext = false;
      const chunk = 500;
      for (let start = 0; ; start += chunk) {
        const ids = await client.zrevrange(`${records}:ids`, start, start + chunk - 1);
        if (ids.length === 0) break;
        const pipeline = client.pipeline();
        for (const id of ids) pipeline.hgetall(`${records}:job:${id}`);
        const replies = (await pipeline.exec()) ?? [];
        for (const [index, [error, hash]] of replies.entries()) {
          if (error !== null) throw error;
          const record = recordOf(Number(ids[index]), hash as Record<string, string>);
          if (record === null) continue;
          if (filter.kind !== undefined && record.kind !== filter.kind) continue;
          if (filter.states !== undefined && !filter.states.includes(record.state)) continue;
          matched += 1;
          if (matched > skip && items.length < page.perPage) items.push(record);
          else if (matched > skip + page.perPage) hasNext = true;
        }
        if (matched > TOTAL_COUNT_LIMIT && hasNext) break;
      }
      return { items, total: matched > TOTAL_COUNT_LIMIT ? null : matched, hasNext };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...workers.values()].map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
      if (owned) await client.quit();
    },
  };
  return repository;
}
