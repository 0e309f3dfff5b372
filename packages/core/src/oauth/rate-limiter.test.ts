import { describe, expect, it } from "vitest";
import { runRateLimiterConformance } from "../testing/rate-limiter-conformance.js";
import { createMemoryRateLimiter, rateLimitKeys } from "./rate-limiter.js";

const t = (s: number) => new Date(Date.UTC(2030, 0, 1) + s * 1000);

describe("createMemoryRateLimiter (checklist B5)", () => {
  it("blocks after N failures and lifts the block when the window ends", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.retryAfter("k", t(i))).toBe(0);
      await limiter.recordFailure("k", t(i));
    }
    expect(await limiter.retryAfter("k", t(10))).toBe(50);
    expect(await limiter.retryAfter("k", t(59.5))).toBe(1);
    expect(await limiter.retryAfter("k", t(60))).toBe(0);
  });

  it("counts keys separately and forgets a key on reset", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 60 });
    await limiter.recordFailure("a", t(0));
    expect(await limiter.retryAfter("a", t(1))).toBe(59);
    expect(await limiter.retryAfter("b", t(1))).toBe(0);
    await limiter.reset("a");
    expect(await limiter.retryAfter("a", t(1))).toBe(0);
  });

  it("starts a new window after the old one ends", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 2, windowSeconds: 10 });
    await limiter.recordFailure("k", t(0));
    await limiter.recordFailure("k", t(11));
    expect(await limiter.retryAfter("k", t(12))).toBe(0);
    await limiter.recordFailure("k", t(12));
    expect(await limiter.retryAfter("k", t(13))).toBe(8);
  });

  it("sweeps expired entries as time passes, whatever the number of keys (issue 8)", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 10 });
    for (let i = 0; i < 900; i++) await limiter.recordFailure(`k${i}`, t(0));
    expect(limiter.size).toBe(900);
    // One call after the window drops every expired key, not just the one it asks about.
    expect(await limiter.retryAfter("other", t(10))).toBe(0);
    expect(limiter.size).toBe(0);
    await limiter.recordFailure("c", t(20));
    expect(await limiter.retryAfter("c", t(21))).toBe(9);
    expect(limiter.size).toBe(1);
  });

  it("holds at most maxKeys keys, dropping the oldest window first", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 60, maxKeys: 3 });
    for (const [i, k] of ["a", "b", "c", "d"].entries()) await limiter.recordFailure(k, t(i));
    expect(limiter.size).toBe(3);
    expect(await limiter.retryAfter("a", t(5))).toBe(0);
    expect(await limiter.retryAfter("d", t(5))).toBe(58);
  });

  it("takes a per-call limit (address keys allow more failures)", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 60 });
    await limiter.recordFailure("k", t(0));
    expect(await limiter.retryAfter("k", t(1))).toBe(59);
    expect(await limiter.retryAfter("k", t(1), 2)).toBe(0);
  });

  it("builds fixed-length keys, whatever the size of the username, client id or address (issue 8)", () => {
    const huge = "u".repeat(1_000_000);
    for (const key of [rateLimitKeys.client(huge), rateLimitKeys.address(huge), rateLimitKeys.password(huge, huge), rateLimitKeys.password("alice", undefined)]) {
      expect(key.length).toBeLessThanOrEqual(40);
    }
    expect(rateLimitKeys.client("cid")).toMatch(/^oauth:client:[\w-]{22}$/);
    expect(rateLimitKeys.password("Alice", "10.0.0.1")).toBe(rateLimitKeys.password("alice", "10.0.0.1"));
    expect(rateLimitKeys.password("alice", "10.0.0.1")).not.toBe(rateLimitKeys.password("alice", "10.0.0.2"));
    expect(rateLimitKeys.password("alice", undefined)).not.toBe(rateLimitKeys.password("bob", undefined));
    expect(rateLimitKeys.address("10.0.0.1")).not.toBe(rateLimitKeys.client("10.0.0.1"));
  });

  it("stores a long key from another caller as its digest, so it still counts", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 60 });
    const long = "x".repeat(100_000);
    await limiter.recordFailure(long, t(0));
    expect(await limiter.retryAfter(long, t(1))).toBe(59);
    expect(await limiter.retryAfter(`${long}y`, t(1))).toBe(0);
    await limiter.reset(long);
    expect(await limiter.retryAfter(long, t(1))).toBe(0);
  });
});

// The suite every limiter runs (the store-backed one in store-kysely, the Redis one in jobs-bullmq).
runRateLimiterConformance("createMemoryRateLimiter: the limiter conformance suite", (options) => Promise.resolve(createMemoryRateLimiter(options)));
