/**
 * Brute-force protection (RFC 6749 §2.3.1 and §4.3.2; RFC 6819 §5.1.4.2.3–4; checklist B5):
 * failed client authentications and password-grant attempts are counted per key; a key with too
 * many failures in its window is refused with 429 and an integer `Retry-After` until the window
 * ends. Keys are fixed-length digests, so what an attacker sends never sizes what is kept.
 */
import { createHash } from "node:crypto";

/** Counts failures per key. Implementations may be shared between processes. */
export interface RateLimiter {
  /**
   * Seconds until `key` may try again; 0 when it may try now. `maxFailures`, when given, is the
   * limit for this key (address keys allow more than client and user keys); a limiter with its
   * own policy may ignore it.
   */
  retryAfter(key: string, now: Date, maxFailures?: number): Promise<number>;
  /** Records one failed attempt for `key`. */
  recordFailure(key: string, now: Date): Promise<void>;
  /** Forgets the failures of `key` (after a success). */
  reset(key: string): Promise<void>;
}

/** 128 bits of SHA-256 as base64url (22 characters): collisions are out of reach, keys stay small. */
function keyDigest(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url").slice(0, 22);
}

/**
 * Keys the OAuth services throttle on. Every request-derived part is hashed, so a key is at most
 * ~40 characters whatever the client sent (a 1 MB username costs one digest, not 1 MB of map key),
 * and a shared limiter (e.g. Redis) holds no usernames or addresses in clear.
 */
export const rateLimitKeys = {
  /** Failed authentications of one client id, from anywhere. */
  client: (clientId: string) => `oauth:client:${keyDigest(clientId)}`,
  /** Every failed client authentication and password attempt from one address. */
  address: (address: string) => `oauth:address:${keyDigest(address)}`,
  /** Failed password attempts for one login (case-insensitive) from one address. */
  password: (username: string, address: string | undefined) => `oauth:password:${keyDigest(`${username.toLowerCase()}\n${address ?? "-"}`)}`,
} as const;

/** Options of `createMemoryRateLimiter`: the failures allowed per window, the window, and how many keys it keeps. */
export interface MemoryRateLimiterOptions {
  /** Failures allowed within one window; the next attempt is refused. */
  maxFailures: number;
  windowSeconds: number;
  /**
   * Most keys held at once (default 100 000, a few MB). When a new key would exceed it, the key
   * whose window started first is dropped; expired keys are dropped on every call anyway.
   */
  maxKeys?: number;
}

/** The in-memory limiter, with the number of keys it holds (for monitoring and tests). */
export interface MemoryRateLimiter extends RateLimiter {
  /** Keys currently held (expired ones are dropped on the next call). */
  readonly size: number;
}

/** A key longer than this (a caller that did not use `rateLimitKeys`) is stored as its digest. */
const MAX_KEY_LENGTH = 128;

const DEFAULT_MAX_KEYS = 100_000;

/**
 * A fixed-window, in-process limiter (the default; one process only). Memory is bounded: keys are
 * at most {@link MAX_KEY_LENGTH} characters, expired windows are dropped as time passes (on every
 * call, oldest first, so the cost is proportional to what expired), and at most `maxKeys` are held.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const windowMs = options.windowSeconds * 1000;
  const maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_KEYS);
  // Insertion order is window-start order: a key is deleted and re-inserted when a new window
  // begins, so the expired keys are always at the front of the map.
  const entries = new Map<string, { start: number; failures: number }>();
  const bounded = (key: string) => (key.length <= MAX_KEY_LENGTH ? key : `digest:${keyDigest(key)}`);
  const sweep = (now: number) => {
    for (const [key, entry] of entries) {
      // A clock that went back can leave a later window in front; it is swept when it expires.
      if (now - entry.start < windowMs) return;
      entries.delete(key);
    }
  };
  const live = (key: string, now: number) => {
    sweep(now);
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.start >= windowMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    get size() {
      return entries.size;
    },
    retryAfter(key, now, maxFailures) {
      const entry = live(bounded(key), now.getTime());
      if (entry === undefined || entry.failures < (maxFailures ?? options.maxFailures)) return Promise.resolve(0);
      return Promise.resolve(Math.max(1, Math.ceil((entry.start + windowMs - now.getTime()) / 1000)));
    },
    recordFailure(key, now) {
      const t = now.getTime();
      const k = bounded(key);
      const entry = live(k, t);
      if (entry !== undefined) {
        entry.failures += 1;
        return Promise.resolve();
      }
      entries.set(k, { start: t, failures: 1 });
      // Full: drop the oldest window. Per-address keys stop one address from filling the map
      // (its attempts are refused before they create keys), so only a spread of addresses gets here.
      for (const oldest of entries.keys()) {
        if (entries.size <= maxKeys) break;
        entries.delete(oldest);
      }
      return Promise.resolve();
    },
    reset(key) {
      entries.delete(bounded(key));
      return Promise.resolve();
    },
  };
}
