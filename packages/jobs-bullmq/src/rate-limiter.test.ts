/**
 * `redisRateLimiter`: the limiter conformance suite over the real Redis of FORGEKIT_TEST_REDIS_URL
 * (each test on its own key prefix), two limiters standing for two instances share one count, and
 * each documented policy for an unreachable Redis (a port where nothing listens).
 */
import type { Logger } from "@forgekit/core";
import { rateLimitKeys } from "@forgekit/core";
import { runRateLimiterConformance } from "@forgekit/core/testing";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { redisRateLimiter } from "./rate-limiter.js";

const url = process.env.FORGEKIT_TEST_REDIS_URL;
const run = `fktest-rl-${process.pid}-${randomBytes(4).toString("hex")}`;

/** A redis:// URL of a port where nothing listens (taken and released at once). */
async function deadRedisUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `redis://127.0.0.1:${port}`;
}

const t0 = new Date();

describe("redisRateLimiter: Redis unreachable", () => {
  it('"memory" (default) keeps counting in the process, and logs the outage once', async () => {
    const events: string[] = [];
    const logger: Logger = { log: (_level, event) => events.push(event) };
    const limiter = redisRateLimiter({ connection: await deadRedisUrl(), maxFailures: 2, windowSeconds: 60, logger });
    const key = rateLimitKeys.client("c");
    await limiter.recordFailure(key, t0);
    expect(await limiter.retryAfter(key, t0)).toBe(0);
    await limiter.recordFailure(key, t0);
    expect(await limiter.retryAfter(key, t0)).toBe(60);
    expect(events).toEqual(["rate_limiter.redis_unavailable"]);
    await limiter.close();
  });

  it('"closed" refuses every throttled attempt with closedRetrySeconds', async () => {
    const limiter = redisRateLimiter({ connection: await deadRedisUrl(), maxFailures: 2, windowSeconds: 60, whenUnavailable: "closed", closedRetrySeconds: 7 });
    expect(await limiter.retryAfter(rateLimitKeys.client("fresh"), t0)).toBe(7);
    await limiter.close();
  });

  it('"open" counts nothing', async () => {
    const limiter = redisRateLimiter({ connection: await deadRedisUrl(), maxFailures: 1, windowSeconds: 60, whenUnavailable: "open" });
    const key = rateLimitKeys.client("c");
    for (let i = 0; i < 3; i++) await limiter.recordFailure(key, t0);
    expect(await limiter.retryAfter(key, t0)).toBe(0);
    await limiter.close();
  });
});

if (url === undefined || url === "") {
  console.log("jobs-bullmq: FORGEKIT_TEST_REDIS_URL is not set — Redis rate limiter conformance skipped");
  describe("redisRateLimiter", () => {
    it.skip("limiter conformance on Redis (set FORGEKIT_TEST_REDIS_URL to run it)", () => {});
  });
} else {
  let tests = 0;
  runRateLimiterConformance("redisRateLimiter: the limiter conformance suite", async (options) => {
    tests += 1;
    const limiter = redisRateLimiter({ connection: url, keyPrefix: `${run}-${tests}`, ...options });
    // Keys expire with their window; the longest is 10 minutes.
    return limiter;
  });

  describe("redisRateLimiter across instances", () => {
    it("two limiters on one Redis (two instances) share one count", async () => {
      const keyPrefix = `${run}-shared`;
      const [a, b] = [redisRateLimiter({ connection: url, keyPrefix, maxFailures: 4, windowSeconds: 60 }), redisRateLimiter({ connection: url, keyPrefix, maxFailures: 4, windowSeconds: 60 })];
      const key = rateLimitKeys.password("alice", "192.0.2.9");
      await a.recordFailure(key, new Date());
      await b.recordFailure(key, new Date());
      await a.recordFailure(key, new Date());
      expect(await b.retryAfter(key, new Date())).toBe(0);
      await b.recordFailure(key, new Date());
      expect(await a.retryAfter(key, new Date())).toBeGreaterThan(0);
      await a.reset(key);
      expect(await b.retryAfter(key, new Date())).toBe(0);
      await Promise.all([a.close(), b.close()]);
    });
  });
}
