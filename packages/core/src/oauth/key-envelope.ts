/**
 * Envelope encryption of the provider's stored keys (the id_token RSA key, the consent HMAC key):
 * each value is encrypted with its own random 256-bit data key (AES-256-GCM), and that data key is
 * encrypted with the configured key-encryption key (KEK, AES-256-GCM too). The envelope names the
 * KEK's id, so a new KEK can be configured while the previous ones still open what they sealed
 * (start-up re-seals those under the new one). A dump of the table then holds no key material.
 *
 * Envelope: `fkenc1.<kek id>.<base64url(iv ‖ sealed data key ‖ tag)>.<base64url(iv ‖ ciphertext ‖ tag)>`.
 * Both layers authenticate the key kind and the KEK id as associated data, so an envelope cannot be
 * moved to another kind or relabelled with another key id.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import type { OAuthKeyKind } from "../ports/oauth-store.js";

const PREFIX = "fkenc1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Key ids: short, and free of the envelope's `.` separator. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A key-encryption key as configured: an id and 32 bytes given as base64 (or base64url) or hex. */
export interface KeyEncryptionKeyInput {
  keyId: string;
  key: string;
}

/** `oauth.keyEncryption`: the current KEK (seals) and retired ones (still open, re-sealed at start-up). */
export interface KeyEncryptionOptions extends KeyEncryptionKeyInput {
  previousKeys?: readonly KeyEncryptionKeyInput[] | undefined;
}

/** The 32 key bytes of a configured KEK, or null when it is not 64 hex digits or base64 of 32 bytes. */
export function decodeKeyEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === KEY_BYTES ? bytes : null;
}

/** Why a stored value cannot be opened. */
export type KeyVaultError =
  | { kind: "no_key_configured"; keyId: string }
  | { kind: "unknown_key_id"; keyId: string }
  | { kind: "undecryptable"; keyId: string }
  | { kind: "malformed" };

/** A sentence for operators (start-up failure); never contains key material. */
export function describeKeyVaultError(error: KeyVaultError, kind: OAuthKeyKind): string {
  switch (error.kind) {
    case "no_key_configured":
      return `the stored OAuth key ${kind} is encrypted with key-encryption key "${error.keyId}", but oauth.keyEncryption is not configured`;
    case "unknown_key_id":
      return `the stored OAuth key ${kind} is encrypted with key-encryption key "${error.keyId}", which is neither oauth.keyEncryption.keyId nor in oauth.keyEncryption.previousKeys`;
    case "undecryptable":
      return `the stored OAuth key ${kind} cannot be decrypted with the configured key-encryption key "${error.keyId}" (wrong key for this id?)`;
    case "malformed":
      return `the stored OAuth key ${kind} looks encrypted but is not a valid envelope (corrupted?)`;
  }
}

/** Seals and opens stored key values; without a configured KEK it stores them as given (plain text). */
export interface KeyVault {
  /** The id of the KEK that seals, or null when none is configured. */
  readonly currentKeyId: string | null;
  /** The value to store for `plaintext`: an envelope under the current KEK, or the plaintext itself. */
  seal(kind: OAuthKeyKind, plaintext: string): string;
  /** The plaintext of a stored value (envelope or plain text). */
  open(kind: OAuthKeyKind, stored: string): Result<string, KeyVaultError>;
  /** Whether a stored value should be rewritten: plain text while a KEK is configured, or sealed under a retired KEK. */
  needsReseal(stored: string): boolean;
}

/** Whether a stored value is an envelope (plain PEM and base64url HMAC keys never start like this). */
export function isEnvelope(stored: string): boolean {
  return stored.startsWith(`${PREFIX}.`);
}

const aad = (kind: OAuthKeyKind, keyId: string, layer: "dek" | "value") => Buffer.from(`${PREFIX}|${kind}|${keyId}|${layer}`);

function encrypt(key: Buffer, plaintext: Buffer, associated: Buffer): string {
  // node:crypto's CSPRNG, not the instance's Random port: a GCM nonce must never repeat under one
  // key, and a seeded Random (tests, demos) repeats across processes.
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(associated);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The plaintext, or null when the tag does not verify (wrong key, altered data). */
function decrypt(key: Buffer, sealed: string, associated: Buffer): Buffer | null {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(associated);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

/**
 * The vault of an instance. `options` must already be valid (the configuration schema checks ids
 * and key lengths); without options values pass through unchanged.
 */
export function createKeyVault(options: KeyEncryptionOptions | undefined): KeyVault {
  const keks = new Map<string, Buffer>();
  if (options !== undefined) {
    for (const { keyId, key } of [options, ...(options.previousKeys ?? [])]) {
      const bytes = decodeKeyEncryptionKey(key);
      if (bytes === null || !KEY_ID_PATTERN.test(keyId)) throw new Error(`invalid key-encryption key "${keyId}"`);
      if (!keks.has(keyId)) keks.set(keyId, bytes);
    }
  }
  const currentKeyId = options?.keyId ?? null;
  // The consent key is opened on every authorization request: remember what each envelope opened
  // to (a handful of values per process; the plaintext is in memory while used anyway).
  const opened = new Map<string, string>();

  return {
    currentKeyId,
    seal(kind, plaintext) {
      if (currentKeyId === null) return plaintext;
      const kek = keks.get(currentKeyId)!;
      const dek = randomBytes(KEY_BYTES);
      const wrapped = encrypt(kek, dek, aad(kind, currentKeyId, "dek"));
      const body = encrypt(dek, Buffer.from(plaintext, "utf8"), aad(kind, currentKeyId, "value"));
      return `${PREFIX}.${currentKeyId}.${wrapped}.${body}`;
    },
    open(kind, stored) {
      if (!isEnvelope(stored)) return ok(stored);
      const memo = opened.get(`${kind}:${stored}`);
      if (memo !== undefined) return ok(memo);
      const parts = stored.split(".");
      if (parts.length !== 4 || !KEY_ID_PATTERN.test(parts[1]!)) return err({ kind: "malformed" });
      const [, keyId, wrapped, body] = parts as [string, string, string, string];
      if (currentKeyId === null) return err({ kind: "no_key_configured", keyId });
      const kek = keks.get(keyId);
      if (kek === undefined) return err({ kind: "unknown_key_id", keyId });
      const dek = decrypt(kek, wrapped, aad(kind, keyId, "dek"));
      if (dek === null || dek.length !== KEY_BYTES) return err({ kind: "undecryptable", keyId });
      const plaintext = decrypt(dek, body, aad(kind, keyId, "value"));
      if (plaintext === null) return err({ kind: "undecryptable", keyId });
      if (opened.size >= 16) opened.clear();
      opened.set(`${kind}:${stored}`, plaintext.toString("utf8"));
      return ok(plaintext.toString("utf8"));
    },
    needsReseal(stored) {
      if (currentKeyId === null) return false;
      return !isEnvelope(stored) || stored.split(".")[1] !== currentKeyId;
    },
  };
}

/** A vault that stores keys as given (no KEK configured). */
export const plainKeyVault: KeyVault = createKeyVault(undefined);
