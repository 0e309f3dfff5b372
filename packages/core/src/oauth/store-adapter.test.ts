import { describe, expect, it } from "vitest";
import type { OAuthRepositories } from "../ports/oauth-store.js";
import { createMemoryOAuthStore } from "../testing/oauth-memory-store/index.js";
import { runOAuthStoreConformance } from "../testing/oauth-store-conformance/index.js";
import { oauthStoreFrom, type StoreWithOAuth } from "./store-adapter.js";

/** An instance-store shape built over the memory OAuth store, counting transactions. */
function instanceStore(): StoreWithOAuth & { transactions: number } {
  const inner = createMemoryOAuthStore();
  const wrapper = {
    transactions: 0,
    oauth: inner as OAuthRepositories,
    transaction<T>(fn: (tx: { oauth: OAuthRepositories }) => Promise<T>): Promise<T> {
      wrapper.transactions += 1;
      return inner.transaction((tx) => fn({ oauth: tx }));
    },
  };
  return wrapper;
}

describe("oauthStoreFrom", () => {
  it("passes transactions through to the instance store", async () => {
    const outer = instanceStore();
    const store = oauthStoreFrom(outer);
    const value = await store.transaction((tx) => tx.oauthKeys.putIfAbsent("consent_hmac", "k", new Date(0)));
    expect(value.value).toBe("k");
    expect(outer.transactions).toBe(1);
    expect(await store.oauthKeys.get("consent_hmac")).toEqual(value);
  });
});

runOAuthStoreConformance("memory through oauthStoreFrom", () => oauthStoreFrom(instanceStore()));
