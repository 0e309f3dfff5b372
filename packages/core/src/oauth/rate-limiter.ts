/**
 * Brute-force protection (RFC 6749 §2.3.1 and §4.3.2; checklist B5): failed client
 * authentications and password-grant attempts are counted per key; a key with too many failures
 * in its window is refused with 429 and an integer `Retry-After` until the window ends.
 */

/** Counts failures per key. Implementations may be shared between processes. */
export interface RateLimiter {
  /** Seconds until `key` may try again; 0 when it may try now. */
  retryAfter(key: string, now: Date): Promise<number>;
  /** Records one failed attempt for `key`. */
  recordFailure(key: string, now: Date): Promise<void>;
  /** Forgets the failures of `key` (after a success). */
  reset(key: string): Promise<void>;
}

/** Keys the OAuth services throttle on. */
export const rateLimitKeys = {
  client: (clientId: string) => `oauth:client:${clientId}`,
  clientAddress: (address: string) => `oauth:client-address:${address}`,
  password: (username: string, address: string | undefined) => `oauth:password:${username.toLowerCase()}:${address ?? "-"}`,
} as const;

export interface MemoryRateLimiterOptions {
  /** Failures allowed within one window; the next attempt is refused. */
  maxFailures: number;
  windowSeconds: number;
  /** Entries kept before expired ones are swept (bounds memory under a spray of keys). */
  sweepAbove?: number;
}

/** A fixed-window, in-process limiter (the default; one process only). */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const windowMs = options.windowSeconds * 1000;
  const sweepAbove = options.sweepAbove ?? 10_000;
  const entries = new Map<string, { start: number; failures: number }>();
  const live = (key: string, now: number) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.start >= windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    retryAfter(key, now) {
      const entry = live(key, now.getTime());
      if (entry === undefined || entry.failures < options.maxFailures) return Promise.resolve(0);
      return Promise.resolve(Math.max(1, Math.ceil((entry.start + windowMs - now.getTime()) / 1000)));
    },
    recordFailure(key, now) {
      const t = now.getTime();
      const entry = live(key, t);
      if (entry === undefined) entries.set(key, { start: t, failures: 1 });
      else entry.failures += 1;
      if (entries.size > sweepAbove) for (const k of [...entries.keys()]) live(k, t);
      return Promise.resolve();
    },
    reset(key) {
      entries.delete(key);
      return Promise.resolve();
    },
  };
}
