/**
 * An `OAuthStore` over a fresh in-memory instance store (`memoryStore()`), for tests and demos of
 * the OAuth services alone. The OAuth repositories live in the main memory store
 * (memory-store/oauth.ts) and share its one lock and its transactions.
 */
import { oauthStoreFrom } from "../../oauth/store-adapter.js";
import type { OAuthStore } from "../../ports/oauth-store.js";
import { memoryStore } from "../../memory-store/index.js";

/** Creates an empty in-memory OAuth store. */
export function createMemoryOAuthStore(): OAuthStore {
  return oauthStoreFrom(memoryStore());
}
