/**
 * The heartbeat of a worker pool in the jobs port's worker registry (`JobRepository.heartbeat`):
 * every `beatMs` the pool writes that it is alive for {@link ALIVE_BEATS} more beats. When a
 * process dies (`kill -9`, a crash, a lost machine) its beats stop, and once that window has
 * passed any other worker of the same database takes over the jobs it held — in seconds, where the
 * jobs' leases (a minute by default) would keep them, and what they lock (a project made read-only
 * by a storage move), held until the lease ends.
 */
import type { JobRepository } from "../ports/jobs-store.js";
import type { Clock, Logger } from "../ports/runtime.js";

/**
 * Beats a worker may miss before it counts as gone: tolerates a busy event loop or a slow database
 * for a few seconds (a live worker taken for dead only loses its lease: its writes are refused and
 * the job runs again, which its idempotent steps allow).
 */
export const ALIVE_BEATS = 5;

/** Default period of the registry heartbeat: a dead worker's jobs are free about 10 s after its last beat. */
export const DEFAULT_WORKER_HEARTBEAT_MS = 2_000;

/** A running registry heartbeat. */
export interface RegistryHeartbeat {
  /** Writes one beat now (the pool's first, before its first claim); never rejects. */
  beat(): Promise<void>;
  /** Stops beating and removes the pool's row (its jobs are settled or released by then). */
  stop(): Promise<void>;
}

/** Starts beating for `owner` every `beatMs` (nothing at all on a repository without a registry). */
export function registryHeartbeat(deps: { jobs: JobRepository; clock: Clock; logger: Logger }, owner: string, beatMs: number): RegistryHeartbeat {
  const { jobs, clock, logger } = deps;
  if (jobs.heartbeat === undefined) return { beat: () => Promise.resolve(), stop: () => Promise.resolve() };
  const beat = async () => {
    const now = clock.now();
    try {
      await jobs.heartbeat?.(owner, new Date(now.getTime() + ALIVE_BEATS * beatMs), now);
    } catch (error) {
      // The next beat tries again; only ALIVE_BEATS misses in a row free this pool's jobs.
      logger.log("warn", "jobs.worker_heartbeat_failed", { owner, error: error instanceof Error ? error.message : String(error) });
    }
  };
  // One beat at a time: on a slow database an older beat landing after a newer one would move
  // `aliveUntil` back.
  let inFlight: Promise<void> | null = null;
  const once = () => {
    inFlight ??= beat().finally(() => (inFlight = null));
    return inFlight;
  };
  const timer = setInterval(() => void once(), beatMs);
  timer.unref?.();
  return {
    beat: once,
    async stop() {
      clearInterval(timer);
      await inFlight;
      await jobs.retire?.(owner).catch((error: unknown) => logger.log("warn", "jobs.worker_retire_failed", { owner, error: String(error) }));
    },
  };
}
