/**
 * The forge stand-in's rate limit: a window of `limit` requests per token (the forge's primary
 * limit, with its `X-RateLimit-*` headers), and an exhaustion a test switches on, answered as the
 * primary limit (403 + remaining 0), the secondary one (403 + `Retry-After`) or 429.
 */
import type { ServerResponse } from "node:http";
import type { ExtForgeStandInRateLimit, ExtForgeStandInUser } from "./extforge-model.js";
import { sendJson } from "./kit.js";

export interface StandInRateLimiter {
  /** The headers of an allowed request, or undefined after answering the refusal. */
  check(res: ServerResponse, token: string, user: ExtForgeStandInUser): Record<string, string> | undefined;
  exhaust(until: number, options?: { retryAfter?: boolean; status?: 403 | 429 }): void;
}

export function standInRateLimiter(options: ExtForgeStandInRateLimit | undefined, now: () => number): StandInRateLimiter {
  const limit = options?.limit ?? 5000;
  const windowMs = (options?.windowSeconds ?? 3600) * 1000;
  const windows = new Map<string, { resetAt: number; used: number }>();
  let exhausted: { until: number; retryAfter: boolean; status: 403 | 429 } | undefined;

  return {
    check(res, token, user) {
      const t = now();
      let window = windows.get(token);
      if (window === undefined || t >= window.resetAt) windows.set(token, (window = { resetAt: t + windowMs, used: 0 }));
      if (exhausted !== undefined && t < exhausted.until) {
        const resetSeconds = String(Math.ceil(exhausted.until / 1000));
        const headers: Record<string, string> = { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": "0", "x-ratelimit-reset": resetSeconds, "x-ratelimit-used": String(limit), "x-ratelimit-resource": "core" };
        if (exhausted.retryAfter) {
          delete headers["x-ratelimit-remaining"];
          headers["retry-after"] = String(Math.max(1, Math.ceil((exhausted.until - t) / 1000)));
        }
        sendJson(res, exhausted.status, { message: exhausted.retryAfter ? "You have exceeded a secondary rate limit." : `API rate limit exceeded for user ID ${user.id}.` }, headers);
        return undefined;
      }
      if (window.used >= limit) {
        sendJson(res, 403, { message: `API rate limit exceeded for user ID ${user.id}.` }, { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(window.resetAt / 1000)) });
        return undefined;
      }
      window.used += 1;
      return { "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(limit - window.used), "x-ratelimit-reset": String(Math.ceil(window.resetAt / 1000)), "x-ratelimit-used": String(window.used), "x-ratelimit-resource": "core" };
    },
    exhaust(until, more = {}) {
      exhausted = { until, retryAfter: more.retryAfter === true, status: more.status ?? 403 };
    },
  };
}
