/** Exponential backoff between attempts: deterministic, so tests assert exact run-after times. */
import type { BackoffOptions } from "./types.js";

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 1000, factor: 2, maxMs: 60 * 60 * 1000 };

/** Delay before the attempt after failed attempt number `attempt` (1-based). */
export function backoffDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const { baseMs, factor, maxMs } = { ...DEFAULT_BACKOFF, ...options };
  const exponent = Math.max(0, attempt - 1);
  // Computed in floating point and capped, so large attempt counts never overflow to Infinity.
  return Math.min(maxMs, baseMs * factor ** exponent);
}
