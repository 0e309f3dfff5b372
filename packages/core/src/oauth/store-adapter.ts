/**
 * Adapts an instance store that carries the OAuth repositories as one member (`store.oauth`,
 * docs/adding-a-capability.md: one member line on `Store`) to the `OAuthStore` the services take, with transactions
 * passing through to the instance store's own.
 */
import type { OAuthRepositories, OAuthStore } from "../ports/oauth-store.js";

/** Any store with `oauth` repositories whose transactions hand out `oauth` too (e.g. `Store`). */
export interface StoreWithOAuth {
  oauth: OAuthRepositories;
  transaction<T>(fn: (tx: { oauth: OAuthRepositories }) => Promise<T>): Promise<T>;
}

/** The `OAuthStore` view of an instance store. */
export function oauthStoreFrom(store: StoreWithOAuth): OAuthStore {
  const { oauthApplications, oauthCodes, oauthTokens, oauthKeys, oauthConsents } = store.oauth;
  return {
    oauthApplications,
    oauthCodes,
    oauthTokens,
    oauthKeys,
    oauthConsents,
    transaction: (fn) => store.transaction((tx) => fn(tx.oauth)),
  };
}
