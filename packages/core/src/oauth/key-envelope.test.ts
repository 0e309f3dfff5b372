import { describe, expect, it } from "vitest";
import { createMemoryOAuthStore } from "../testing/oauth-memory-store/index.js";
import { resolveOAuthConfig } from "./config.js";
import { createKeyVault, decodeKeyEncryptionKey, isEnvelope, plainKeyVault } from "./key-envelope.js";
import { prepareStoredKeys } from "./stored-keys.js";

const K1 = { keyId: "k1", key: Buffer.alloc(32, 1).toString("base64") };
const K2 = { keyId: "k2", key: Buffer.alloc(32, 2).toString("hex") };
const T0 = new Date("2030-01-01T00:00:00Z");

describe("decodeKeyEncryptionKey", () => {
  it("takes 32 bytes as hex, base64 or base64url, and nothing else", () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7));
    expect(decodeKeyEncryptionKey(bytes.toString("hex"))).toEqual(bytes);
    expect(decodeKeyEncryptionKey(bytes.toString("base64"))).toEqual(bytes);
    expect(decodeKeyEncryptionKey(bytes.toString("base64url"))).toEqual(bytes);
    for (const bad of ["", "abc", Buffer.alloc(16).toString("base64"), Buffer.alloc(33).toString("hex"), Buffer.alloc(31).toString("hex")]) expect(decodeKeyEncryptionKey(bad)).toBeNull();
  });
});

describe("key vault", () => {
  it("without a key-encryption key values pass through as plain text", () => {
    expect(plainKeyVault.seal("consent_hmac", "secret")).toBe("secret");
    expect(plainKeyVault.open("consent_hmac", "secret")._unsafeUnwrap()).toBe("secret");
    expect(plainKeyVault.needsReseal("secret")).toBe(false);
  });

  it("seals under the current key with a fresh data key each time, and opens it again", () => {
    const vault = createKeyVault(K1);
    const a = vault.seal("id_token_rsa", "-----BEGIN PRIVATE KEY-----\nMII");
    const b = vault.seal("id_token_rsa", "-----BEGIN PRIVATE KEY-----\nMII");
    expect(a).toMatch(/^fkenc1\.k1\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("PRIVATE KEY");
    expect(vault.open("id_token_rsa", a)._unsafeUnwrap()).toBe("-----BEGIN PRIVATE KEY-----\nMII");
    expect(vault.needsReseal(a)).toBe(false);
    expect(vault.needsReseal("plain")).toBe(true);
  });

  it("refuses a wrong key, an unknown id, no key, another kind, a relabelled id and tampering", () => {
    const sealed = createKeyVault(K1).seal("consent_hmac", "hmac-key");
    expect(createKeyVault({ keyId: "k1", key: K2.key }).open("consent_hmac", sealed)._unsafeUnwrapErr()).toEqual({ kind: "undecryptable", keyId: "k1" });
    expect(createKeyVault(K2).open("consent_hmac", sealed)._unsafeUnwrapErr()).toEqual({ kind: "unknown_key_id", keyId: "k1" });
    expect(plainKeyVault.open("consent_hmac", sealed)._unsafeUnwrapErr()).toEqual({ kind: "no_key_configured", keyId: "k1" });
    expect(createKeyVault(K1).open("id_token_rsa", sealed).isErr()).toBe(true);
    const both = createKeyVault({ ...K1, previousKeys: [{ keyId: "k2", key: K1.key }] });
    expect(both.open("consent_hmac", sealed.replace("fkenc1.k1.", "fkenc1.k2.")).isErr()).toBe(true);
    const body = sealed.split(".")[3]!;
    const flipped = `${body.slice(0, 10)}${body[10] === "A" ? "B" : "A"}${body.slice(11)}`;
    expect(createKeyVault(K1).open("consent_hmac", sealed.replace(body, flipped)).isErr()).toBe(true);
    expect(createKeyVault(K1).open("consent_hmac", "fkenc1.k1.x")._unsafeUnwrapErr()).toEqual({ kind: "malformed" });
  });

  it("previous keys open what they sealed, and such values need re-sealing under the current key", () => {
    const old = createKeyVault(K1).seal("consent_hmac", "v");
    const rotated = createKeyVault({ ...K2, previousKeys: [K1] });
    expect(rotated.open("consent_hmac", old)._unsafeUnwrap()).toBe("v");
    expect(rotated.needsReseal(old)).toBe(true);
    expect(isEnvelope(old)).toBe(true);
  });
});

describe("prepareStoredKeys (start-up)", () => {
  it("seals plain-text keys, is idempotent, and reports a key that does not open", async () => {
    const store = createMemoryOAuthStore();
    await store.oauthKeys.putIfAbsent("consent_hmac", "plain-hmac", T0);
    await store.oauthKeys.putIfAbsent("id_token_rsa", "plain-pem", T0);
    const vault = createKeyVault(K1);
    expect((await prepareStoredKeys(store.oauthKeys, vault))._unsafeUnwrap()).toEqual({ resealed: ["id_token_rsa", "consent_hmac"] });
    const sealed = (await store.oauthKeys.get("consent_hmac"))!.value;
    expect(vault.open("consent_hmac", sealed)._unsafeUnwrap()).toBe("plain-hmac");
    expect((await prepareStoredKeys(store.oauthKeys, vault))._unsafeUnwrap()).toEqual({ resealed: [] });
    expect((await prepareStoredKeys(store.oauthKeys, createKeyVault(K2)))._unsafeUnwrapErr()).toContain('key-encryption key "k1"');
    expect((await store.oauthKeys.get("consent_hmac"))!.value).toBe(sealed);
  });

  it("several processes starting at once all succeed and leave one envelope that opens", async () => {
    const store = createMemoryOAuthStore();
    await store.oauthKeys.putIfAbsent("consent_hmac", "plain-hmac", T0);
    const vault = createKeyVault(K1);
    const results = await Promise.all(Array.from({ length: 5 }, () => prepareStoredKeys(store.oauthKeys, vault)));
    expect(results.every((r) => r.isOk())).toBe(true);
    expect(results.flatMap((r) => r._unsafeUnwrap().resealed)).toEqual(["consent_hmac"]);
    expect(vault.open("consent_hmac", (await store.oauthKeys.get("consent_hmac"))!.value)._unsafeUnwrap()).toBe("plain-hmac");
  });
});

describe("oauth.keyEncryption in the configuration", () => {
  const issues = (keyEncryption: unknown) => resolveOAuthConfig("https://x.example", { keyEncryption } as never);
  it("accepts a key id with a base64 or hex key, and previous keys", () => {
    expect(issues({ ...K1, previousKeys: [K2] }).isOk()).toBe(true);
    expect(issues(K2)._unsafeUnwrap().keyEncryption).toEqual(K2);
  });
  it("refuses short keys, bad ids, duplicate ids and unknown fields, without echoing the key", () => {
    const short = Buffer.alloc(16, 9).toString("base64");
    const refused = issues({ keyId: "k1", key: short });
    expect(refused._unsafeUnwrapErr()).toEqual([{ path: "keyEncryption.key", message: "must be 32 bytes as base64 or hex" }]);
    expect(JSON.stringify(refused)).not.toContain(short);
    expect(issues({ keyId: "a.b", key: K1.key }).isErr()).toBe(true);
    expect(issues({ ...K1, previousKeys: [{ keyId: "k1", key: K2.key }] })._unsafeUnwrapErr()[0]).toMatchObject({ path: "keyEncryption.previousKeys", message: "key ids must be distinct" });
    expect(issues({ ...K1, extra: 1 }).isErr()).toBe(true);
  });
});
