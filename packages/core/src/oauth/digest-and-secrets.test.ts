import { describe, expect, it } from "vitest";
import type { Random } from "../ports/runtime.js";
import { constantTimeEqualStrings, secretDigest, secretMatchesDigest } from "./digest.js";
import { generateClientId, generateFamilyId, generateSecret, SECRET_PREFIXES } from "./secrets.js";

/** Fills every read with one byte value, counting the bytes requested. */
function constantRandom(value: number): Random & { requested: number[] } {
  const requested: number[] = [];
  return {
    requested,
    read(bytes) {
      requested.push(bytes.length);
      bytes.fill(value);
    },
  };
}

describe("secretDigest", () => {
  it("is the lower-case hex SHA-256 of the UTF-8 bytes", () => {
    expect(secretDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(secretDigest("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("matches a secret to its digest only", () => {
    const digest = secretDigest("fkos_secret");
    expect(secretMatchesDigest("fkos_secret", digest)).toBe(true);
    expect(secretMatchesDigest("fkos_secreT", digest)).toBe(false);
    expect(secretMatchesDigest("", digest)).toBe(false);
  });
});

describe("constantTimeEqualStrings", () => {
  it("compares equal and unequal strings", () => {
    expect(constantTimeEqualStrings("abc", "abc")).toBe(true);
    expect(constantTimeEqualStrings("abc", "abd")).toBe(false);
    expect(constantTimeEqualStrings("abc", "abcd")).toBe(false);
    expect(constantTimeEqualStrings("", "")).toBe(true);
  });
});

describe("secret generation", () => {
  it("reads 32 bytes and encodes them base64url behind the kind's prefix", () => {
    const random = constantRandom(0xff);
    const secret = generateSecret(random, "accessToken");
    expect(random.requested).toEqual([32]);
    expect(secret).toBe("fkoa_" + "_".repeat(42) + "8");
  });

  it("keeps every kind within [A-Za-z0-9_-] and at ≥ 256 bits", () => {
    const random = { read: (b: Uint8Array) => globalThis.crypto.getRandomValues(b) };
    for (const kind of Object.keys(SECRET_PREFIXES) as (keyof typeof SECRET_PREFIXES)[]) {
      const secret = generateSecret(random, kind);
      expect(secret.startsWith(SECRET_PREFIXES[kind])).toBe(true);
      expect(secret.slice(SECRET_PREFIXES[kind].length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("generates client ids as 64 hex characters and family ids as 32", () => {
    expect(generateClientId(constantRandom(0xab))).toBe("ab".repeat(32));
    expect(generateFamilyId(constantRandom(0x01))).toBe("01".repeat(16));
  });
});
