/**
 * `redisRateLimiter`: the `RateLimiter` port on Redis through `rate-limiter-flexible`, so every
 * instance behind a load balancer counts the same failures (issue 22). It lives in this package
 * because this is the one forgekit package that already depends on Redis (ioredis): hosts without
 * Redis install nothing more, hosts with Redis for jobs reuse their connection.
 *
 * Semantics are the in-memory limiter's: a fixed window that starts at a key's first failure and
 * lasts `windowSeconds` (Redis key expiry), `retryAfter` compares the failures in the window with
 * the limit (the per-call one or `maxFailures`), `reset` forgets the key. Windows run on Redis's
 * clock: the `now` the port passes is not used (every instance shares one clock that way).
 */
import { createMemoryRateLimiter, type Logger, type RateLimiter } from "@forgekit/core";
import { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";

/**
 * What the limiter does while Redis cannot be reached (down, restarting, slower than `timeoutMs`):
 * - `"memory"` (default): counts in this process's memory until Redis answers again — attackers
 *   get at most N times the budget over N instances for that time, never an unlimited one;
 * - `"closed"`: refuses every throttled attempt (429 with `Retry-After: timeoutRetrySeconds`) —
 *   safest, but password grants and client authentication stop for everyone meanwhile;
 * - `"open"`: counts nothing (every attempt allowed) — availability first.
 */
export type RedisUnavailablePolicy = "memory" | "closed" | "open";

/** Options of `redisRateLimiter`. */
export interface RedisRateLimiterOptions {
  /** An ioredis client (shared with other users is fine) or a `redis://` URL to open one. */
  connection: Redis | string;
  /** Failures allowed within one window; the next attempt is refused (as `oauth.rateLimit.maxFailures`). */
  maxFailures: number;
  /** Length of a window in whole seconds. */
  windowSeconds: number;
  /** Prefix of the Redis keys (default `forgekit:rl`). */
  keyPrefix?: string;
  /** See {@link RedisUnavailablePolicy}; default `"memory"`. */
  whenUnavailable?: RedisUnavailablePolicy;
  /** Longest wait for one Redis answer before the policy applies (default 500 ms). */
  timeoutMs?: number;
  /** `Retry-After` seconds of the `"closed"` policy (default 30). */
  closedRetrySeconds?: number;
  /** Receives `rate_limiter.redis_unavailable` (once per outage) and `rate_limiter.redis_back`. */
  logger?: Logger;
}

/** The Redis limiter: the port plus `close()` (quits the connection when the limiter opened it). */
export interface RedisRateLimiter extends RateLimiter {
  /** Quits the Redis connection the limiter opened from a URL; a client passed in stays open. */
  close(): Promise<void>;
}

class RedisTimeout extends Error {}

/** A shared, Redis-backed limiter (see the module comment and {@link RedisUnavailablePolicy}). */
export function redisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const owned = typeof options.connection === "string";
  // No offline queue: while Redis is away a command fails at once instead of waiting for it.
  const client = typeof options.connection === "string" ? new Redis(options.connection, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : options.connection;
  if (owned) client.on("error", () => {}); // Reported through the policy below, not as unhandled errors.
  const policy = options.whenUnavailable ?? "memory";
  const timeoutMs = options.timeoutMs ?? 500;
  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: options.keyPrefix ?? "forgekit:rl",
    // Failures are added with `penalty`, which never refuses: the limit is compared in retryAfter.
    points: Number.MAX_SAFE_INTEGER,
    duration: options.windowSeconds,
    rejectIfRedisNotReady: true,
  });
  const fallback = createMemoryRateLimiter({ maxFailures: options.maxFailures, windowSeconds: options.windowSeconds });
  let down = false;
  // A connection still (re)connecting gets the rest of `timeoutMs` to become ready.
  const ready = async () => {
    if (client.status === "ready") return;
    await new Promise<void>((resolve) => {
      const done = () => {
        client.off("ready", done);
        resolve();
      };
      client.once("ready", done);
      setTimeout(done, timeoutMs).unref();
    });
  };
  const guarded = async <T>(call: () => Promise<T>, unavailable: () => Promise<T>): Promise<T> => {
    // Known down and not back yet: the policy at once, no wait per attempt during an outage.
    if (down && client.status !== "ready") return unavailable();
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        ready().then(call),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RedisTimeout(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      if (down) {
        down = false;
        options.logger?.log("info", "rate_limiter.redis_back", {});
      }
      return result;
    } catch (error) {
      if (!down) {
        down = true;
        options.logger?.log("error", "rate_limiter.redis_unavailable", { policy, error: error instanceof Error ? error.message : String(error) });
      }
      return unavailable();
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    retryAfter(key, now, maxFailures) {
      const limit = maxFailures ?? options.maxFailures;
      return guarded(
        async () => {
          const res = await limiter.get(key);
          if (res === null || res.consumedPoints < limit) return 0;
          return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        },
        () => (policy === "memory" ? fallback.retryAfter(key, now, maxFailures) : Promise.resolve(policy === "closed" ? (options.closedRetrySeconds ?? 30) : 0)),
      );
    },
    recordFailure(key, now) {
      return guarded(
        async () => {
          await limiter.penalty(key, 1);
        },
        () => (policy === "memory" ? fallback.recordFailure(key, now) : Promise.resolve()),
      );
    },
    reset(key) {
      return guarded(
        async () => {
          await limiter.delete(key);
          await fallback.reset(key);
        },
        () => fallback.reset(key),
      );
    },
    async close() {
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
