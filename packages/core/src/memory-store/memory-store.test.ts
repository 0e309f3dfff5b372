import { expect, it } from "vitest";
import { runStoreConformance } from "../testing/store-conformance/index.js";
import { memoryStore } from "./index.js";

runStoreConformance("memoryStore", async () => memoryStore());

it("memoryStore - a transaction handle used after the transaction finished is refused", async () => {
  const store = memoryStore();
  const leaked = await store.transaction(async (tx) => tx);
  await expect(leaked.settings.get("x")).rejects.toThrow("transaction already finished");
});
