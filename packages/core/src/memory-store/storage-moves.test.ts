/** The storage-moves conformance suite on the in-memory store. */
import { runStorageMovesConformance } from "../testing/storage-moves-conformance.js";
import { memoryStore } from "./index.js";

runStorageMovesConformance("memoryStore().storageMoves", () => {
  const store = memoryStore();
  return Promise.resolve({ store, rival: store });
});
