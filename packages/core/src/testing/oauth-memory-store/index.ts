/**
 * An in-memory `OAuthStore` for tests and demos. Every top-level call and every transaction
 * holds one lock, so operations are serialisable like a single-connection database; a rejected
 * transaction restores the snapshot taken when it began. Calling the top-level store from inside
 * `transaction` waits for the transaction itself and therefore never resolves — use `tx`.
 */
import type { OAuthRepositories, OAuthStore } from "../../ports/oauth-store.js";
import { memoryRepositories, type StateHolder } from "./repositories.js";
import { AsyncLock, copy, emptyOAuthState } from "./state.js";

type AnyMethod = (...args: never[]) => Promise<unknown>;

function locked<R extends object>(repo: R, lock: AsyncLock): R {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(repo) as [string, AnyMethod][]) {
    out[name] = (...args: never[]) => lock.run(() => fn(...args));
  }
  return out as R;
}

/** Creates an empty in-memory OAuth store. */
export function createMemoryOAuthStore(): OAuthStore {
  const holder: StateHolder = { state: emptyOAuthState() };
  const lock = new AsyncLock();
  const repos = memoryRepositories(holder);
  const top: OAuthRepositories = {
    oauthApplications: locked(repos.oauthApplications, lock),
    oauthCodes: locked(repos.oauthCodes, lock),
    oauthTokens: locked(repos.oauthTokens, lock),
    oauthKeys: locked(repos.oauthKeys, lock),
  };
  return {
    ...top,
    transaction<T>(fn: (tx: OAuthRepositories) => Promise<T>): Promise<T> {
      return lock.run(async () => {
        const snapshot = copy(holder.state);
        try {
          return await fn(repos);
        } catch (cause) {
          holder.state = snapshot;
          throw cause;
        }
      });
    },
  };
}
