/**
 * A `Random` that draws from its source in blocks and hands out slices: one CSPRNG call serves
 * many secrets (Web Crypto's per-call cost was the largest item of a refresh-grant profile). Bytes
 * are handed out once and wiped from the pool when taken.
 */
import type { Random } from "../ports/runtime.js";

/** Wraps `source`; reads larger than `blockBytes` go to the source directly. */
export function pooledRandom(source: Random, blockBytes = 4096): Random {
  let pool = new Uint8Array(0);
  let offset = 0;
  return {
    read(bytes: Uint8Array): void {
      if (bytes.length > blockBytes) {
        source.read(bytes);
        return;
      }
      if (offset + bytes.length > pool.length) {
        pool = new Uint8Array(blockBytes);
        source.read(pool);
        offset = 0;
      }
      bytes.set(pool.subarray(offset, offset + bytes.length));
      pool.fill(0, offset, offset + bytes.length);
      offset += bytes.length;
    },
  };
}
