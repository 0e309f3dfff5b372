import { describe, expect, it } from "vitest";
import { pooledRandom } from "./random-pool.js";

/** A source that counts calls and yields 0, 1, 2, … */
function countingSource() {
  let next = 0;
  const calls: number[] = [];
  return {
    calls,
    read(bytes: Uint8Array) {
      calls.push(bytes.length);
      for (let i = 0; i < bytes.length; i++) bytes[i] = next++ & 0xff;
    },
  };
}

describe("pooledRandom", () => {
  it("hands out the source's bytes in order, one source call per block", () => {
    const source = countingSource();
    const random = pooledRandom(source, 64);
    const a = new Uint8Array(32);
    const b = new Uint8Array(32);
    const c = new Uint8Array(8);
    random.read(a);
    random.read(b);
    random.read(c);
    expect([...a]).toEqual([...Array(32).keys()]);
    expect([...b]).toEqual([...Array(32).keys()].map((i) => i + 32));
    expect(c[0]).toBe(64);
    expect(source.calls).toEqual([64, 64]);
  });

  it("never hands the same bytes out twice; large reads bypass the pool", () => {
    const source = countingSource();
    const random = pooledRandom(source, 16);
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const bytes = new Uint8Array(6);
      random.read(bytes);
      seen.add(bytes.join(","));
    }
    expect(seen.size).toBe(8);
    const big = new Uint8Array(100);
    random.read(big);
    expect(source.calls.at(-1)).toBe(100);
  });
});
