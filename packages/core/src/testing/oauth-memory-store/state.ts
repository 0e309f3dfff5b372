/** The in-memory OAuth store's tables and its lock (internal to the memory store). */
import type { OAuthApplication, OAuthAuthorizationCode, OAuthKey, OAuthKeyKind, OAuthToken } from "../../ports/oauth-store.js";

/** Every table of the memory store; cloned whole to roll a transaction back. */
export interface OAuthMemoryState {
  applications: Map<number, OAuthApplication>;
  codes: Map<number, OAuthAuthorizationCode>;
  tokens: Map<number, OAuthToken>;
  keys: Map<OAuthKeyKind, OAuthKey>;
  nextId: { application: number; code: number; token: number };
}

/** A fresh, empty state. */
export function emptyOAuthState(): OAuthMemoryState {
  return {
    applications: new Map(),
    codes: new Map(),
    tokens: new Map(),
    keys: new Map(),
    nextId: { application: 1, code: 1, token: 1 },
  };
}

/**
 * A FIFO async lock. Every top-level operation and every whole transaction holds it, so the
 * memory store behaves like a database with serialisable transactions (one writer at a time).
 */
export class AsyncLock {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier holder has finished; releases even when `fn` rejects. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** A deep copy, so callers never share objects with the store's tables. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
