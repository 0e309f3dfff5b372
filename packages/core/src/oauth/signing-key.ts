/**
 * The RS256 key that signs id_tokens: from configuration, or generated once and stored through the
 * `OAuthKeyRepository` (all processes then share it). Public half published as a JWKS whose `kid`
 * is the RFC 7638 thumbprint.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import type { OAuthKeyRepository } from "../ports/oauth-store.js";
import { describeKeyVaultError, plainKeyVault, type KeyVault } from "./key-envelope.js";

/** A public RSA key as a JWK (RFC 7517) for the JWKS document. */
export interface RsaPublicJwk {
  kty: "RSA";
  n: string;
  e: string;
  kid: string;
  use: "sig";
  alg: "RS256";
}

/** The key set served at the JWKS endpoint. */
export interface Jwks {
  keys: RsaPublicJwk[];
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: RsaPublicJwk;
}

/** Smallest accepted modulus (RFC 7518 §3.3: 2048 bits or larger). */
export const MIN_RSA_BITS = 2048;

/** The RFC 7638 thumbprint of an RSA public key: base64url SHA-256 of `{"e","kty","n"}` in that order. */
export function rsaThumbprint(n: string, e: string): string {
  return createHash("sha256").update(JSON.stringify({ e, kty: "RSA", n })).digest("base64url");
}

/** Parses a PEM RSA private key (PKCS#8 or PKCS#1) of at least 2048 bits. */
export function signingKeyFromPem(pem: string): Result<SigningKey, "invalid_signing_key"> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: "pem" });
  } catch {
    return err("invalid_signing_key");
  }
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (privateKey.asymmetricKeyType !== "rsa" || bits < MIN_RSA_BITS) return err("invalid_signing_key");
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const n = String(jwk.n);
  const e = String(jwk.e);
  const kid = rsaThumbprint(n, e);
  return ok({ kid, privateKey, publicJwk: { kty: "RSA", n, e, kid, use: "sig", alg: "RS256" } });
}

/** Generates a new 2048-bit RSA private key as PKCS#8 PEM (off the event loop). */
export function generateSigningKeyPem(): Promise<string> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      "rsa",
      { modulusLength: MIN_RSA_BITS, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } },
      (error, _publicKey, privateKey) => (error ? reject(error) : resolve(privateKey)),
    );
  });
}

/**
 * The stored key, generating and storing one when none exists (sealed by `vault` when a
 * key-encryption key is configured). Racing callers (several processes starting at once) all end
 * up with the key `putIfAbsent` kept. A stored value that does not open or parse means a wrong
 * key-encryption key (start-up reports that first) or a corrupted store: that rejects, as an
 * infrastructure failure.
 */
export async function loadStoredSigningKey(keys: OAuthKeyRepository, now: Date, vault: KeyVault = plainKeyVault): Promise<SigningKey> {
  const stored = (await keys.get("id_token_rsa")) ?? (await keys.putIfAbsent("id_token_rsa", vault.seal("id_token_rsa", await generateSigningKeyPem()), now));
  const pem = vault.open("id_token_rsa", stored.value);
  if (pem.isErr()) throw new Error(`OAuth start-up check failed: ${describeKeyVaultError(pem.error, "id_token_rsa")}`);
  const key = signingKeyFromPem(pem.value);
  if (key.isErr()) throw new Error("The stored id_token signing key is not a valid RSA private key.");
  return key.value;
}

/**
 * The JWKS document: the signing key first, then retired keys whose id_tokens may still be in use
 * (each kid once).
 */
export function jwksFor(key: SigningKey, retired: readonly SigningKey[] = []): Jwks {
  const keys: RsaPublicJwk[] = [];
  for (const k of [key, ...retired]) if (!keys.some((existing) => existing.kid === k.kid)) keys.push({ ...k.publicJwk });
  return { keys };
}
