/**
 * The rate limiter conformance suite (issue 22): the rules of the `RateLimiter` port as vitest
 * tests every implementation runs — the in-memory limiter, the store-backed one on each SQL
 * database and the Redis one. Limiters may keep time on their own clock (Redis does), so the suite
 * runs on real time: counts are checked inside long windows, expiry with a short window that the
 * test waits out (a condition, not a duration, so a slow machine never fails it).
 */
import { afterEach, describe, expect, it } from "vitest";
import { rateLimitKeys, type RateLimiter } from "../oauth/rate-limiter.js";

/** The options a limiter under test is opened with. */
export interface RateLimiterTestOptions {
  maxFailures: number;
  /** Whole seconds. */
  windowSeconds: number;
}

/** A limiter under test, with what it needs to release afterwards. */
export type RateLimiterTarget = RateLimiter & { close?: () => Promise<void> };

const now = () => new Date();
let keys = 0;
/** A key no other test (or earlier run on a shared Redis/database) has used. */
const freshKey = (label: string) => rateLimitKeys.password(`${label}-${process.pid}-${Date.now()}-${++keys}-${Math.random()}`, "192.0.2.1");

async function eventually(check: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Registers the suite under `describe(name)`. `open` is called in every test with the limits it
 * needs and must return a limiter holding no failures for new keys; the suite closes it afterwards.
 */
export function runRateLimiterConformance(name: string, open: (options: RateLimiterTestOptions) => Promise<RateLimiterTarget>): void {
  describe(name, { timeout: 120_000 }, () => {
    const opened: RateLimiterTarget[] = [];
    const limiter = async (options: RateLimiterTestOptions) => {
      const l = await open(options);
      opened.push(l);
      return l;
    };
    afterEach(async () => {
      for (const l of opened.splice(0)) await l.close?.();
    });

    it("allows maxFailures failures, then refuses with the seconds left in the window", async () => {
      const l = await limiter({ maxFailures: 3, windowSeconds: 600 });
      const key = freshKey("n");
      for (let i = 0; i < 3; i++) {
        expect(await l.retryAfter(key, now())).toBe(0);
        await l.recordFailure(key, now());
      }
      const wait = await l.retryAfter(key, now());
      expect(wait).toBeGreaterThan(540);
      expect(wait).toBeLessThanOrEqual(600);
    });

    it("counts every failure when many are recorded at once (one shared count, no lost update)", async () => {
      const l = await limiter({ maxFailures: 50, windowSeconds: 600 });
      const key = freshKey("race");
      await Promise.all(Array.from({ length: 49 }, () => l.recordFailure(key, now())));
      expect(await l.retryAfter(key, now())).toBe(0);
      await l.recordFailure(key, now());
      expect(await l.retryAfter(key, now())).toBeGreaterThan(0);
    });

    it("counts keys separately and forgets a key on reset", async () => {
      const l = await limiter({ maxFailures: 1, windowSeconds: 600 });
      const [a, b] = [freshKey("a"), freshKey("b")];
      await l.recordFailure(a, now());
      expect(await l.retryAfter(a, now())).toBeGreaterThan(0);
      expect(await l.retryAfter(b, now())).toBe(0);
      await l.reset(a);
      expect(await l.retryAfter(a, now())).toBe(0);
      await l.reset(b); // resetting a key without failures is harmless
      expect(await l.retryAfter(b, now())).toBe(0);
    });

    it("takes a per-call limit (address keys allow more failures)", async () => {
      const l = await limiter({ maxFailures: 1, windowSeconds: 600 });
      const key = freshKey("per-call");
      await l.recordFailure(key, now());
      expect(await l.retryAfter(key, now())).toBeGreaterThan(0);
      expect(await l.retryAfter(key, now(), 2)).toBe(0);
      await l.recordFailure(key, now());
      expect(await l.retryAfter(key, now(), 2)).toBeGreaterThan(0);
    });

    it("lifts the block when the window ends, and starts a new window on the next failure", async () => {
      const l = await limiter({ maxFailures: 1, windowSeconds: 1 });
      const key = freshKey("expiry");
      const started = Date.now();
      await l.recordFailure(key, now());
      const wait = await l.retryAfter(key, now());
      // Blocked for at most the window; only a machine stalled past the window may see it lifted already.
      if (Date.now() - started < 900) expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(1);
      await eventually(async () => (await l.retryAfter(key, now())) === 0);
      await l.recordFailure(key, now());
      const second = Date.now();
      const again = await l.retryAfter(key, now());
      if (Date.now() - second < 900) expect(again).toBe(1);
    });
  });
}
