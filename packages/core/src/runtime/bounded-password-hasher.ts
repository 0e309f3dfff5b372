/**
 * Password hashing with bounded concurrency (issue #23 item 8). scrypt at the default cost takes
 * about 128 MiB and a CPU core for a few hundred milliseconds per call; unbounded, a flood of
 * password attempts (spread over many addresses, so the per-address throttle never trips) held
 * hundreds of megabytes and starved every other request. At most `concurrency` hashes run at once
 * and at most `queue` wait; any call beyond that fails at once with an {@link overloaded} error,
 * which the API answers with 503 + `Retry-After` (OAuth: `temporarily_unavailable`, RFC 6749 §5.2
 * body). Hash and verify share the gate, so an unknown user's dummy verification waits and is
 * refused exactly like a known user's (no user enumeration by timing or by refusal).
 */
import { availableParallelism } from "node:os";
import type { PasswordHasher } from "../ports/runtime.js";
import { overloaded } from "../ports/store-errors.js";

/** Limits of {@link boundedPasswordHasher} (configuration `passwordHashing`). */
export interface PasswordHashingLimits {
  /** Hashes (or verifications) running at once. */
  concurrency: number;
  /** Calls waiting for a running one to finish; a call beyond them is refused. */
  queue: number;
  /** `Retry-After` seconds of a refused call. */
  retryAfterSeconds: number;
}

/**
 * Default concurrency: the number of CPUs, but below libuv's thread pool (`UV_THREADPOOL_SIZE`,
 * default 4), which scrypt shares with file-system and DNS work: at least one thread stays free
 * for the rest of the process.
 */
export function defaultHashingConcurrency(): number {
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(availableParallelism(), pool - 1));
}

/** Wraps `inner` so that at most `limits.concurrency` calls run and `limits.queue` wait. */
export function boundedPasswordHasher(inner: PasswordHasher, limits: PasswordHashingLimits): PasswordHasher {
  let running = 0;
  const waiting: (() => void)[] = [];

  async function gated<T>(work: () => Promise<T>): Promise<T> {
    if (running < limits.concurrency) running += 1;
    else if (waiting.length < limits.queue) await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing call hands its slot over
    else throw overloaded("password hashing is at capacity", limits.retryAfterSeconds);
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  }

  return {
    hash: (password) => gated(() => inner.hash(password)),
    verify: (hash, password) => gated(() => inner.verify(hash, password)),
  };
}
