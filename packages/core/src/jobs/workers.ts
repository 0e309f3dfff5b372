/**
 * The worker pool (`fk.workers`): polls the jobs port for due jobs of the registered kinds, runs up
 * to `concurrency` at once, each under a lease, and stops gracefully. Time for run-after and leases
 * comes from the injected Clock; real timers only pace polling and heartbeats.
 */
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { JobRecord, JobRepository } from "../ports/jobs-store.js";
import { isStoreUnavailable } from "../ports/store-errors.js";
import type { Clock, Logger, Random } from "../ports/runtime.js";
import { runAttempt, type AttemptOutcome } from "./attempt.js";
import { nextOccurrence, seedRecurring, type RecurringJob } from "./recurring.js";
import type { JobRegistry } from "./registry.js";
import { DEFAULT_WORKER_HEARTBEAT_MS, registryHeartbeat, type RegistryHeartbeat } from "./worker-registry.js";

/** Options of `fk.workers.start`. */
export interface WorkerOptions {
  /** Jobs run at once (default 1, at most 100). */
  concurrency?: number;
  /** Pause between polls when no job is due (default 1,000 ms). A finishing job wakes the poller at once. */
  pollIntervalMs?: number;
  /** How long a claim holds a job before another worker may take it over (default 60,000 ms). */
  leaseMs?: number;
  /** Lease renewal period while a handler runs (default a third of `leaseMs`). */
  heartbeatMs?: number;
  /**
   * Period of the pool's beat in the worker registry (default 2,000 ms): when the process dies, the
   * jobs it held are taken over once 5 beats were missed (about 10 s), not when their leases end.
   */
  workerHeartbeatMs?: number;
  /** Only these kinds (default every registered kind). */
  kinds?: readonly string[];
  /** Longest pause after repeated store failures (default 30,000 ms). */
  maxErrorBackoffMs?: number;
  /**
   * The recurring maintenance jobs (`events.prune` daily, `oauth.purge_expired` hourly): `false`
   * schedules none; an object sets a kind's period in ms, or `false` to leave that kind out.
   */
  recurring?: false | Readonly<Record<string, number | false>>;
  /** Called after each attempt (the CLI prints it). */
  onAttempt?: (job: JobRecord, outcome: AttemptOutcome) => void;
  /** Called when a poll found nothing due and no job is running (`forgekit worker --drain` stops there). */
  onIdle?: () => void;
}

/** `fk.workers`: background workers in this process. */
export interface Workers {
  /** Starts polling; a validation error for bad options, `conflict` when already running. */
  start(options?: WorkerOptions): Result<void, ForgekitError>;
  /**
   * Stops: no new claims; each running job finishes, or at its next step is released back to the
   * queue (its attempt not counted). Resolves when nothing is held any more. With `timeoutMs`, jobs
   * still running then are released at once (their handlers' later writes are refused, as the
   * lease is gone), so that a handler stuck between steps cannot hold the process up.
   */
  stop(options?: StopOptions): Promise<void>;
  /** Whether the pool is started and not stopped. */
  readonly running: boolean;
  /** This pool's lease owner id (process id and random hex, unique per pool). */
  readonly owner: string;
}

/** Options of `fk.workers.stop`. */
export interface StopOptions {
  /** Longest wait for running jobs before releasing them (default: wait until they end). */
  timeoutMs?: number;
}

export interface WorkersDeps {
  jobs: JobRepository;
  clock: Clock;
  random: Random;
  logger: Logger;
  registry: JobRegistry;
  recurring: readonly RecurringJob[];
}

function checkOptions(options: WorkerOptions, registry: JobRegistry): ForgekitError | null {
  const messages: Record<string, string[]> = {};
  const positive = (name: string, value: number | undefined, max: number) => {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > max)) messages[name] = [`must be an integer from 1 to ${max}`];
  };
  positive("concurrency", options.concurrency, 100);
  positive("poll_interval_ms", options.pollIntervalMs, 3_600_000);
  positive("lease_ms", options.leaseMs, 86_400_000);
  positive("heartbeat_ms", options.heartbeatMs, 86_400_000);
  positive("worker_heartbeat_ms", options.workerHeartbeatMs, 3_600_000);
  positive("max_error_backoff_ms", options.maxErrorBackoffMs, 3_600_000);
  if (options.heartbeatMs !== undefined && options.heartbeatMs >= (options.leaseMs ?? 60_000)) messages["heartbeat_ms"] = ["must be shorter than lease_ms"];
  for (const [kind, every] of Object.entries(options.recurring === false ? {} : (options.recurring ?? {}))) {
    if (every !== false && (!Number.isInteger(every) || every < 1)) messages[`recurring.${kind}`] = ["must be a positive integer (ms) or false"];
  }
  const unknown = (options.kinds ?? []).filter((kind) => registry.get(kind) === undefined);
  if (unknown.length > 0) messages["kinds"] = [`are not defined: ${unknown.join(", ")}`];
  return Object.keys(messages).length === 0 ? null : errors.validation(messages);
}

/** The recurring kinds this pool schedules, with the options' periods. */
function recurringOf(defaults: readonly RecurringJob[], chosen: WorkerOptions["recurring"], kinds: readonly string[]): RecurringJob[] {
  if (chosen === false) return [];
  const out: RecurringJob[] = [];
  for (const entry of defaults) {
    const every = chosen?.[entry.kind];
    if (every === false || !kinds.includes(entry.kind)) continue;
    out.push({ kind: entry.kind, everyMs: every ?? entry.everyMs });
  }
  return out;
}

/** Resolves after the event loop has handled pending I/O (setImmediate where there is one). */
const yieldToEventLoop = () => new Promise<void>((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** A worker pool over the jobs port. */
export function createWorkers(deps: WorkersDeps): Workers {
  const bytes = new Uint8Array(8);
  deps.random.read(bytes);
  const pid = typeof process === "object" ? process.pid : 0;
  const owner = `${pid}-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  let run: { stopping: boolean; done: Promise<void>; wake: () => void; stopListeners: Set<() => void>; active: Map<Promise<void>, JobRecord>; registry: RegistryHeartbeat } | null = null;

  const start = (options: WorkerOptions = {}): Result<void, ForgekitError> => {
    const problem = checkOptions(options, deps.registry);
    if (problem !== null) return err(problem);
    if (run !== null) return err(errors.conflict("the workers are already running"));
    const concurrency = options.concurrency ?? 1;
    const pollIntervalMs = options.pollIntervalMs ?? 1000;
    const leaseMs = options.leaseMs ?? 60_000;
    const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(leaseMs / 3));
    const maxErrorBackoffMs = options.maxErrorBackoffMs ?? 30_000;
    const kinds = options.kinds ?? deps.registry.kinds();
    const recurring = recurringOf(deps.recurring, options.recurring, kinds);

    let wakeUp: () => void = () => {};
    const active = new Map<Promise<void>, JobRecord>();
    const registry = registryHeartbeat(deps, owner, options.workerHeartbeatMs ?? DEFAULT_WORKER_HEARTBEAT_MS);
    const state = { stopping: false, done: Promise.resolve(), wake: () => wakeUp(), stopListeners: new Set<() => void>(), active, registry };
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeUp = () => {};
          resolve();
        }
        wakeUp = done;
      });
    const attemptDeps = {
      jobs: deps.jobs,
      clock: deps.clock,
      logger: deps.logger,
      owner,
      leaseMs,
      heartbeatMs,
      stopping: () => state.stopping,
      onStop: (fn: () => void) => {
        state.stopListeners.add(fn);
        return () => void state.stopListeners.delete(fn);
      },
      next: (record: JobRecord) => nextOccurrence(deps, recurring, record),
    };
    const launch = (record: JobRecord) => {
      const kind = deps.registry.get(record.kind);
      if (kind === undefined) return; // claims name registered kinds only
      const task = runAttempt(attemptDeps, kind, record)
        .then((outcome) => options.onAttempt?.(record, outcome))
        .catch((error: unknown) => deps.logger.log("error", "jobs.worker_error", { jobId: record.id, error: String(error) }))
        .finally(() => {
          active.delete(task);
          state.wake();
        });
      active.set(task, record);
    };

    const loop = async () => {
      // Registered before the first claim: from now on a crash of this process frees its jobs within seconds.
      await registry.beat();
      let failures = 0;
      let seeded = recurring.length === 0;
      while (!state.stopping) {
        // Back to the event loop before each claim: on a synchronous driver (better-sqlite3) claims
        // and short jobs chain through promises alone, and a long queue of them starved every timer
        // and socket of the process (a 42 s stall in the webhooks bench).
        await yieldToEventLoop();
        try {
          if (!seeded) {
            await seedRecurring(deps, recurring);
            seeded = true;
          }
          const free = concurrency - active.size;
          if (free > 0) {
            const now = deps.clock.now();
            const claimed = await deps.jobs.claim({ owner, kinds, limit: free, now, leaseUntil: new Date(now.getTime() + leaseMs) });
            failures = 0;
            for (const record of claimed) launch(record);
            if (claimed.length === 0 && active.size === 0) options.onIdle?.();
            // A full batch: more may be due right away.
            if (claimed.length === free && !state.stopping) continue;
          }
          if (!state.stopping) await sleep(pollIntervalMs);
        } catch (error) {
          // Database unavailable (or any other store failure): keep the process up, back off, retry.
          failures += 1;
          const pause = Math.min(maxErrorBackoffMs, pollIntervalMs * 2 ** Math.min(failures, 16));
          deps.logger.log("warn", "jobs.poll_failed", { unavailable: isStoreUnavailable(error), retryInMs: pause, error: error instanceof Error ? error.message : String(error) });
          if (!state.stopping) await sleep(pause);
        }
      }
    };
    state.done = loop();
    run = state;
    deps.logger.log("info", "jobs.workers_started", { owner, concurrency, kinds });
    return ok(undefined);
  };

  /** Gives back every job still running (after a stop timeout); a failure only means the lease will expire instead. */
  const releaseAll = async (active: Map<Promise<void>, JobRecord>) => {
    for (const record of active.values()) {
      const released = await deps.jobs.release(record.id, owner, deps.clock.now()).catch(() => false);
      deps.logger.log("warn", "jobs.released_on_timeout", { jobId: record.id, kind: record.kind, released });
    }
  };

  return {
    start,
    async stop(options = {}) {
      const current = run;
      if (current === null) return;
      current.stopping = true;
      for (const listener of current.stopListeners) listener();
      current.wake();
      await current.done;
      const running = Promise.all([...current.active.keys()]);
      if (options.timeoutMs === undefined) await running;
      else {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = await Promise.race([running.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), options.timeoutMs)))]);
        clearTimeout(timer);
        if (timedOut) await releaseAll(current.active);
      }
      await current.registry.stop();
      run = null;
      deps.logger.log("info", "jobs.workers_stopped", { owner });
    },
    get running() {
      return run !== null && !run.stopping;
    },
    owner,
  };
}
