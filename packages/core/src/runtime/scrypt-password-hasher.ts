/**
 * The default PasswordHasher: scrypt from node:crypto (DESIGN §5). Hashes are self-describing,
 * `scrypt$<N>$<r>$<p>$<salt b64>$<key b64>`, so the cost can be raised later without breaking
 * existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import type { PasswordHasher } from "../ports/runtime.js";

/** scrypt cost parameters. The defaults follow OWASP's scrypt recommendation (N=2^17, r=8, p=1). */
export interface ScryptOptionsInput {
  /** CPU/memory cost N, a power of two (default 2^17). */
  cost?: number;
  /** Block size r (default 8). */
  blockSize?: number;
  /** Parallelization p (default 1). */
  parallelization?: number;
}

const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128 * N * r bytes, or node refuses large costs.
    const maxmem = 256 * (options.N ?? 16384) * (options.r ?? 8);
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Builds a scrypt hasher; tests pass a low `cost` to stay fast. */
export function scryptPasswordHasher(options: ScryptOptionsInput = {}): PasswordHasher {
  const N = options.cost ?? 2 ** 17;
  const r = options.blockSize ?? 8;
  const p = options.parallelization ?? 1;
  return {
    async hash(password: string): Promise<string> {
      const salt = randomBytes(16);
      const key = await derive(password, salt, { N, r, p });
      return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
    },
    async verify(hash: string, password: string): Promise<boolean> {
      const parts = hash.split("$");
      if (parts.length !== 6 || parts[0] !== "scrypt") return false;
      const [hN, hr, hp] = parts.slice(1, 4).map(Number);
      if (!Number.isInteger(hN) || !Number.isInteger(hr) || !Number.isInteger(hp)) return false;
      const salt = Buffer.from(parts[4] ?? "", "base64");
      const expected = Buffer.from(parts[5] ?? "", "base64");
      if (expected.length !== KEY_LENGTH) return false;
      const key = await derive(password, salt, { N: hN, r: hr, p: hp });
      return timingSafeEqual(key, expected);
    },
  };
}
