/**
 * A `PasswordHasher` stand-in whose calls a test finishes by hand: each call of a kind in `holding`
 * (`hash`, `verify`) waits in `held` until the test calls its `release()`; others answer at once.
 * Hashes are plain text (`hash:<password>`), so verification is exact and cheap.
 */
import type { PasswordHasher } from "../ports/runtime.js";

/** One call waiting for the test. */
export interface HeldCall {
  kind: "hash" | "verify";
  release(): void;
}

/** The stand-in; `calls` counts every call the stand-in received (held or not). */
export interface HeldPasswordHasher extends PasswordHasher {
  /** The kinds of call held for the test (default none). */
  holding: HeldCall["kind"][];
  readonly held: HeldCall[];
  readonly calls: { hash: number; verify: number };
}

/** Builds a stand-in that answers at once until `holding` names a kind. */
export function heldPasswordHasher(): HeldPasswordHasher {
  const held: HeldCall[] = [];
  const calls = { hash: 0, verify: 0 };
  const answer = <T>(kind: HeldCall["kind"], value: T): Promise<T> => {
    calls[kind] += 1;
    if (!stand.holding.includes(kind)) return Promise.resolve(value);
    return new Promise<T>((resolve) => {
      const call: HeldCall = {
        kind,
        release: () => {
          held.splice(held.indexOf(call), 1);
          resolve(value);
        },
      };
      held.push(call);
    });
  };
  const stand: HeldPasswordHasher = {
    holding: [],
    held,
    calls,
    hash: (password) => answer("hash", `hash:${password}`),
    verify: (hash, password) => answer("verify", hash === `hash:${password}`),
  };
  return stand;
}
