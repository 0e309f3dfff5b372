/**
 * The trusted-proxy setting (issue 22): which `X-Forwarded-For` hops name the client whose address
 * keys the per-address rate limits — express's `trust proxy` rules, off by default.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ForgekitConfigError } from "../config.js";
import { createMemoryRateLimiter, rateLimitKeys, type RateLimiter } from "../oauth/rate-limiter.js";
import { createTestForgekit } from "../testing/fixtures.js";
import { clientAddress, trustHop } from "./client-address.js";

describe("clientAddress", () => {
  const xff = "203.0.113.9, 198.51.100.7, 10.0.0.2";
  it("is the peer address when trustProxy is false (the default), whatever X-Forwarded-For says", () => {
    expect(clientAddress("10.0.0.1", xff, trustHop(false))).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", xff, trustHop(0))).toBe("10.0.0.1");
  });
  it("believes as many hops from the right as the number of trusted proxies", () => {
    expect(clientAddress("10.0.0.1", xff, trustHop(1))).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.1", xff, trustHop(2))).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.1", xff, trustHop(3))).toBe("203.0.113.9");
    // More trusted hops than the header has: the leftmost address.
    expect(clientAddress("10.0.0.1", xff, trustHop(9))).toBe("203.0.113.9");
  });
  it("with true, every hop is a proxy: the leftmost address", () => {
    expect(clientAddress("10.0.0.1", xff, trustHop(true))).toBe("203.0.113.9");
  });
  it("with a list, believes hops while their address is listed (addresses and CIDR ranges, IPv4-mapped peers)", () => {
    const trust = trustHop(["10.0.0.0/8", "::1"]);
    expect(clientAddress("10.0.0.1", xff, trust)).toBe("198.51.100.7");
    expect(clientAddress("::ffff:10.0.0.1", xff, trust)).toBe("198.51.100.7");
    expect(clientAddress("::1", "203.0.113.9", trust)).toBe("203.0.113.9");
    // A peer that is not a listed proxy is the client, even if it sends the header.
    expect(clientAddress("192.0.2.1", xff, trust)).toBe("192.0.2.1");
  });
  it("stops at an entry that is not an address, and keeps the peer without the header", () => {
    expect(clientAddress("10.0.0.1", "203.0.113.9, garbage", trustHop(true))).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", undefined, trustHop(true))).toBe("10.0.0.1");
    expect(clientAddress(undefined, xff, trustHop(true))).toBeUndefined();
  });
});

/** A memory limiter that remembers which keys had failures recorded. */
function recordingLimiter(): RateLimiter & { keys: string[] } {
  const inner = createMemoryRateLimiter({ maxFailures: 10, windowSeconds: 300 });
  const keys: string[] = [];
  return {
    keys,
    retryAfter: (key, now, max) => inner.retryAfter(key, now, max),
    recordFailure: (key, now) => {
      keys.push(key);
      return inner.recordFailure(key, now);
    },
    reset: (key) => inner.reset(key),
  };
}

const wrongPassword = {
  method: "POST",
  path: "/oauth/token",
  rawQuery: "",
  body: new TextEncoder().encode(new URLSearchParams({ grant_type: "password", username: "alice", password: "wrong" }).toString()),
  remoteAddress: "127.0.0.1",
};

describe("trustProxy: the per-address rate limits count the client address", () => {
  it("off by default: X-Forwarded-For is ignored, the peer is counted (POST /oauth/token)", async () => {
    const limiter = recordingLimiter();
    const t = await createTestForgekit({ rateLimiter: limiter });
    const r = await t.fk.handle({ ...wrongPassword, headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.5" } });
    expect(r.status).toBe(400);
    expect(limiter.keys).toContain(rateLimitKeys.address("127.0.0.1"));
    expect(limiter.keys).not.toContain(rateLimitKeys.address("203.0.113.5"));
  });

  it("behind one trusted proxy: the address the proxy appended is counted (POST /oauth/token and git over HTTP)", async () => {
    const limiter = recordingLimiter();
    const t = await createTestForgekit({ rateLimiter: limiter, trustProxy: 1 });
    const r = await t.fk.handle({ ...wrongPassword, headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "198.51.100.1, 203.0.113.5" } });
    expect(r.status).toBe(400);
    expect(limiter.keys).toEqual(expect.arrayContaining([rateLimitKeys.address("203.0.113.5"), rateLimitKeys.password("alice", "203.0.113.5")]));
    expect(limiter.keys).not.toContain(rateLimitKeys.address("127.0.0.1"));

    limiter.keys.length = 0;
    const basic = `Basic ${Buffer.from("alice:wrong").toString("base64")}`;
    const git = await t.fk.gitHttp.handle({
      method: "GET",
      path: `/${t.projects.personal.fullPath}.git/info/refs`,
      rawQuery: "service=git-upload-pack",
      headers: { authorization: basic, "x-forwarded-for": "203.0.113.6" },
      remoteAddress: "127.0.0.1",
      body: Readable.from([]),
    });
    expect(git.status).toBe(401);
    expect(limiter.keys).toContain(rateLimitKeys.address("203.0.113.6"));
  });

  it("refuses a list entry that is not an address or range at boot", async () => {
    await expect(createTestForgekit({ trustProxy: ["10.0.0.0/8", "proxy.local"] })).rejects.toThrow(ForgekitConfigError);
  });
});
