import { describe, expect, it } from "vitest";
import type { Store } from "../ports/store.js";
import { memoryStore } from "../memory-store/index.js";
import { oauthStoreFrom } from "./store-adapter.js";

/** The memory instance store, counting the transactions it runs. */
function countingStore(): { store: Store; transactions: () => number } {
  const inner = memoryStore();
  let count = 0;
  const store: Store = {
    ...inner,
    transaction: (fn) => {
      count += 1;
      return inner.transaction(fn);
    },
  };
  return { store, transactions: () => count };
}

describe("oauthStoreFrom", () => {
  it("passes transactions through to the instance store, with its oauth repositories", async () => {
    const { store: outer, transactions } = countingStore();
    const store = oauthStoreFrom(outer);
    const value = await store.transaction((tx) => tx.oauthKeys.putIfAbsent("consent_hmac", "k", new Date(0)));
    expect(value.value).toBe("k");
    expect(transactions()).toBe(1);
    expect(await outer.oauth.oauthKeys.get("consent_hmac")).toEqual(value);
  });

  it("a rejected transaction leaves nothing in the instance store", async () => {
    const { store: outer } = countingStore();
    const store = oauthStoreFrom(outer);
    await expect(
      store.transaction(async (tx) => {
        await tx.oauthKeys.putIfAbsent("consent_hmac", "k", new Date(0));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await outer.oauth.oauthKeys.get("consent_hmac")).toBeNull();
  });
});
