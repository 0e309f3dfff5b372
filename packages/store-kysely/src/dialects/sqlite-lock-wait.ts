/**
 * Waiting for another connection's SQLite lock without blocking the event loop. SQLite's own busy
 * handler (`PRAGMA busy_timeout`) sleeps inside the C call, and better-sqlite3 is synchronous, so a
 * process waiting for a lock held by another process (a second server in cluster mode, the CLI)
 * would freeze every request, not just the one that writes. Instead the handle runs with
 * `busy_timeout = 0`, a statement fails at once with SQLITE_BUSY, and the retry sleeps on a timer.
 */
import { storeUnavailable, type StoreUnavailableError } from "@forgekit/core";

/** First pause after a busy answer; short, because most locks are held for well under a millisecond. */
const FIRST_PAUSE_MS = 1;
/**
 * Longest pause between two attempts. SQLite has no queue of waiters: a waiter gets the lock only
 * if it asks while nobody holds it, so it must keep asking often (a long pause would let a busy
 * process take the lock again every time before this one looks).
 */
const MAX_PAUSE_MS = 8;

/** Whether `error` is SQLite saying another connection holds a lock (SQLITE_BUSY*, SQLITE_LOCKED*). */
export function isSqliteLockError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/**
 * The error a caller gets when the lock did not come free within the budget (`waitedMs`), or at
 * once inside a transaction (no `waitedMs`: nothing there may be retried): 503 + Retry-After.
 */
export function lockTimeout(cause: unknown, waitedMs?: number): StoreUnavailableError {
  const why = waitedMs === undefined ? "inside a transaction" : `waited ${Math.round(waitedMs)} ms`;
  return storeUnavailable(`SQLite database is locked by another connection (${why})`, { cause, retryAfterSeconds: 1 });
}

/** A pause of about `pauseMs` (±50 %), so two waiting processes do not ask in lockstep. */
function jittered(pauseMs: number): number {
  return pauseMs * (0.5 + Math.random());
}

/** Waits `ms` on a timer. */
export const sleep = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How {@link retryWhileLocked} waits. */
export interface RetryOptions {
  /** Does the waiting (default: a timer); the driver lends its connection to other callers meanwhile. */
  pause?: (ms: number) => Promise<void>;
  /** Pause once before the first attempt (the time counts against the budget). */
  pauseFirst?: boolean;
}

/**
 * Runs `attempt` until it does not fail with a lock error, pausing on timers with a growing,
 * jittered backoff; after `budgetMs` in total it throws {@link lockTimeout}. Only for work that is
 * safe to run again after SQLITE_BUSY: a statement outside an explicit transaction (SQLite rolled
 * its implicit transaction back), `BEGIN`, or `COMMIT` (SQLite keeps the transaction open when
 * COMMIT is busy) — see the SQLITE_BUSY notes of sqlite3_step().
 */
export async function retryWhileLocked<T>(attempt: () => T, budgetMs: number, options: RetryOptions = {}): Promise<T> {
  const { pause = sleep } = options;
  const started = performance.now();
  if (options.pauseFirst === true) await pause(0);
  for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS)) {
    try {
      return attempt();
    } catch (error) {
      if (!isSqliteLockError(error)) throw error;
      const waited = performance.now() - started;
      if (waited >= budgetMs) throw lockTimeout(error, waited);
      await pause(Math.min(budgetMs - waited, jittered(pauseMs)));
    }
  }
}
