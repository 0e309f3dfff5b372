/**
 * How a store says "the database cannot be reached right now" (connection refused or lost, pool
 * exhausted, statement or lock timeout) as opposed to "this query is wrong". A store throws (or
 * rejects with) an error built by {@link storeUnavailable}; core answers it with
 * 503 `{"message":"503 Service Unavailable"}` and `Retry-After` instead of a 500, and OAuth routes
 * with `temporarily_unavailable` (RFC 6749 §4.1.2.1). A marker property, not a class, so that a
 * store built against another copy of core is still understood (DESIGN §4: no `instanceof`).
 */

const MARK = "FORGEKIT_STORE_UNAVAILABLE" as const;

/** An error a store throws when its database is unavailable; `cause` is the driver's error. */
export interface StoreUnavailableError extends Error {
  readonly code: typeof MARK;
  /** Seconds after which a retry is likely to succeed (sent as `Retry-After`). */
  readonly retryAfterSeconds: number;
}

/** Builds the error a store throws when its database is unavailable. */
export function storeUnavailable(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}): StoreUnavailableError {
  const error = new Error(message, { cause: options.cause }) as Error & { code: string; retryAfterSeconds: number };
  error.name = "StoreUnavailableError";
  error.code = MARK;
  error.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds ?? 1));
  return error as StoreUnavailableError;
}

const OVERLOADED = "FORGEKIT_OVERLOADED" as const;

/**
 * An error core throws when a bounded resource (e.g. password hashing) is at capacity: answered
 * like an unavailable store (503 + `Retry-After`, OAuth `temporarily_unavailable`), logged apart.
 */
export interface OverloadedError extends Error {
  readonly code: typeof OVERLOADED;
  /** Seconds after which a retry is likely to succeed (sent as `Retry-After`). */
  readonly retryAfterSeconds: number;
}

/** Builds the error a bounded resource throws when it is at capacity. */
export function overloaded(message: string, retryAfterSeconds = 1): OverloadedError {
  const error = new Error(message) as Error & { code: string; retryAfterSeconds: number };
  error.name = "OverloadedError";
  error.code = OVERLOADED;
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error as OverloadedError;
}

/** Whether `error` (or anything in its `cause` chain) says the store is unavailable. */
export function isStoreUnavailable(error: unknown): boolean {
  return unavailableIn(error)?.code === MARK;
}

/** Whether `error` (or anything in its `cause` chain) says a bounded resource is at capacity. */
export function isOverloaded(error: unknown): boolean {
  return unavailableIn(error)?.code === OVERLOADED;
}

/** The unavailable (store down) or overloaded error within `error`'s cause chain, if any: both mean "retry shortly". */
export function unavailableIn(error: unknown): StoreUnavailableError | OverloadedError | undefined {
  for (let at = error, depth = 0; typeof at === "object" && at !== null && depth < 8; depth += 1) {
    const code = (at as { code?: unknown }).code;
    if (code === MARK || code === OVERLOADED) return at as StoreUnavailableError | OverloadedError;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}
