import { describe, expect, it } from "vitest";
import { scryptPasswordHasher } from "./scrypt-password-hasher.js";
import { systemRandom } from "./defaults.js";

describe("scryptPasswordHasher", () => {
  const hasher = scryptPasswordHasher({ cost: 1024 });

  it("verifies the password it hashed and nothing else", async () => {
    const hash = await hasher.hash("correct horse");
    expect(hash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await hasher.verify(hash, "correct horse")).toBe(true);
    expect(await hasher.verify(hash, "wrong horse")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hasher.hash("same")).not.toBe(await hasher.hash("same"));
  });

  it("rejects malformed hashes without throwing", async () => {
    expect(await hasher.verify("plain", "x")).toBe(false);
    expect(await hasher.verify("scrypt$a$b$c$d$e", "x")).toBe(false);
  });
});

describe("systemRandom", () => {
  it("fills the buffer", () => {
    const bytes = new Uint8Array(32);
    systemRandom.read(bytes);
    expect(bytes.some((b) => b !== 0)).toBe(true);
  });
});
