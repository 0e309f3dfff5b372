import { describe, expect, it } from "vitest";
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

  it("sweeps expired entries when many keys pile up", async () => {
    const limiter = createMemoryRateLimiter({ maxFailures: 1, windowSeconds: 10, sweepAbove: 2 });
    await limiter.recordFailure("a", t(0));
    await limiter.recordFailure("b", t(0));
    await limiter.recordFailure("c", t(20));
    expect(await limiter.retryAfter("c", t(21))).toBe(9);
    expect(await limiter.retryAfter("a", t(21))).toBe(0);
  });

  it("builds per-client and per-username-and-address keys", () => {
    expect(rateLimitKeys.client("cid")).toBe("oauth:client:cid");
    expect(rateLimitKeys.password("Alice", "10.0.0.1")).toBe("oauth:password:alice:10.0.0.1");
    expect(rateLimitKeys.password("alice", undefined)).toBe("oauth:password:alice:-");
  });
});
