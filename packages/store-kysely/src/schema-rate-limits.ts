/** The shared rate-limit counters (0030, issue 22): one row per throttled key and window. */

/** One key's failures in its current fixed window (`kyselyRateLimiter`). */
export interface RateLimitsTable {
  /** A `rateLimitKeys` key (hashed parts, at most ~40 characters) or a longer caller key's digest. */
  key: string;
  /** Start of the window in milliseconds since the epoch. */
  window_start: number | string | bigint;
  failures: number;
}

/** The tables of the shared rate limiter. */
export interface RateLimitsDatabase {
  forgekit_rate_limits: RateLimitsTable;
}

/** The rate limiter's tables, for FORGEKIT_TABLES. */
export const RATE_LIMITS_TABLES = ["forgekit_rate_limits"] as const;
