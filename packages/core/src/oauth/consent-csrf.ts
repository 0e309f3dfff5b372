/**
 * The consent form's CSRF token (RFC 6749 §10.12): an HMAC over the signed-in user, the exact
 * authorization request and the time it was issued, keyed by a secret stored once through the
 * `OAuthKeyRepository`. It needs no session storage, cannot approve another request or act for
 * another user, and expires; `consentTokenUse` names the record that makes it single-use.
 */
import { sha256, SHA256 } from "@oslojs/crypto/sha2";
import { hmac } from "@oslojs/crypto/hmac";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { OAuthKeyRepository } from "../ports/oauth-store.js";
import type { Random } from "../ports/runtime.js";
import { constantTimeEqualStrings, secretDigest } from "./digest.js";
import { describeKeyVaultError, plainKeyVault, type KeyVault } from "./key-envelope.js";
import { randomBytes } from "./secrets.js";

/** The request fields a consent token binds. */
export interface ConsentBinding {
  userId: number;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string | null;
  codeChallenge: string | null;
  nonce: string | null;
}

/** Allowed clock skew between issuing and verifying processes. */
const SKEW_SECONDS = 60;

/**
 * The consent HMAC key, generated from `random` and stored on first use (sealed by `vault` when a
 * key-encryption key is configured); racing callers share one. A stored key that does not open
 * (wrong key-encryption key; start-up reports it first) rejects as an infrastructure failure.
 */
export async function loadConsentKey(keys: OAuthKeyRepository, random: Random, now: Date, vault: KeyVault = plainKeyVault): Promise<Uint8Array> {
  const stored = (await keys.get("consent_hmac")) ?? (await keys.putIfAbsent("consent_hmac", vault.seal("consent_hmac", encodeBase64urlNoPadding(randomBytes(random, 32))), now));
  const opened = vault.open("consent_hmac", stored.value);
  if (opened.isErr()) throw new Error(`OAuth start-up check failed: ${describeKeyVaultError(opened.error, "consent_hmac")}`);
  return decodeBase64urlIgnorePadding(opened.value);
}

function mac(key: Uint8Array, issuedAt: number, unique: string, b: ConsentBinding): string {
  const message = JSON.stringify([issuedAt, unique, b.userId, b.clientId, b.redirectUri, b.scopes.join(" "), b.state, b.codeChallenge, b.nonce]);
  // Hash first so arbitrarily long requests cost one fixed-size HMAC.
  return encodeBase64urlNoPadding(hmac(SHA256, key, sha256(new TextEncoder().encode(message))));
}

/**
 * A token for the consent form: `<issued-at unix seconds>.<base64url 16 random bytes>.<base64url
 * HMAC>`. The random part makes every rendered form's token distinct (two tabs opened in the same
 * second each get their own), since each token may be used once.
 */
export function issueConsentToken(key: Uint8Array, binding: ConsentBinding, now: Date, random: Random): string {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const unique = encodeBase64urlNoPadding(randomBytes(random, 16));
  return `${issuedAt}.${unique}.${mac(key, issuedAt, unique, binding)}`;
}

/**
 * What marks a verified token used (`OAuthConsentRepository.markUsed`): its digest, and when it
 * stops verifying anyway (issued-at + lifetime + skew), after which the mark may be deleted.
 */
export function consentTokenUse(token: string, lifetimeSeconds: number): { digest: string; expiresAt: Date } {
  const issuedAt = Number(token.slice(0, token.indexOf(".")));
  return { digest: secretDigest(token), expiresAt: new Date((issuedAt + lifetimeSeconds + SKEW_SECONDS) * 1000) };
}

/** Whether `token` was issued for exactly this binding within the last `lifetimeSeconds`. */
export function verifyConsentToken(key: Uint8Array, binding: ConsentBinding, token: string | undefined, now: Date, lifetimeSeconds: number): boolean {
  if (token === undefined) return false;
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (m === null) return false;
  const issuedAt = Number(m[1]);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (issuedAt > nowSeconds + SKEW_SECONDS || nowSeconds - issuedAt > lifetimeSeconds) return false;
  return constantTimeEqualStrings(mac(key, issuedAt, m[2]!, binding), m[3]!);
}
