/** Import credentials at rest: sealed under the key-encryption key when one is configured. */
import { describe, expect, it } from "vitest";
import { credentialsBox } from "./credentials.js";

const KEY = Buffer.alloc(32, 7).toString("base64");
const OTHER = Buffer.alloc(32, 9).toString("base64");

describe("credentialsBox", () => {
  it("without a key-encryption key the credentials are JSON text", () => {
    const box = credentialsBox({ oauth: {} } as never);
    const stored = box.seal({ token: "t0ken", username: "u" });
    expect(JSON.parse(stored)).toEqual({ token: "t0ken", username: "u" });
    expect(box.open(stored)).toEqual({ token: "t0ken", username: "u" });
  });

  it("with a key they are sealed (the token is not in the stored text) and open again, also after a key rotation", () => {
    const box = credentialsBox({ oauth: { keyEncryption: { keyId: "k1", key: KEY } } } as never);
    const stored = box.seal({ token: "secret-token" });
    expect(stored).not.toContain("secret-token");
    expect(stored.startsWith("fkimp1.k1.")).toBe(true);
    expect(box.open(stored)).toEqual({ token: "secret-token" });
    const rotated = credentialsBox({ oauth: { keyEncryption: { keyId: "k2", key: OTHER, previousKeys: [{ keyId: "k1", key: KEY }] } } } as never);
    expect(rotated.open(stored)).toEqual({ token: "secret-token" });
  });

  it("altered or foreign data does not open", () => {
    const box = credentialsBox({ oauth: { keyEncryption: { keyId: "k1", key: KEY } } } as never);
    const stored = box.seal({ token: "secret-token" });
    expect(box.open(`${stored.slice(0, -2)}AA`)).toBeNull();
    expect(credentialsBox({ oauth: { keyEncryption: { keyId: "k3", key: OTHER } } } as never).open(stored)).toBeNull();
    expect(box.open("not json")).toBeNull();
  });
});
