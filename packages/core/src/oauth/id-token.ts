/** OpenID Connect id_tokens: RS256 JWTs (RFC 7519, RFC 7515) signed with node:crypto. */
import { sign } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import type { OAuthKeyRepository } from "../ports/oauth-store.js";
import type { Clock } from "../ports/runtime.js";
import type { KeyVault } from "./key-envelope.js";
import { jwksFor, loadStoredSigningKey, signingKeyFromPem, type Jwks, type SigningKey } from "./signing-key.js";

/** The claims forgekit puts in an id_token (client-compatibility 10). */
export interface IdTokenClaims {
  /** The base URL, exactly. */
  iss: string;
  /** The user id as a string. */
  sub: string;
  /** The client id. */
  aud: string;
  exp: number;
  iat: number;
  /** Copied from the authorization request when it had one. */
  nonce?: string;
}

/** Builds the claims of an id_token issued at `now`. */
export function idTokenClaims(input: { issuer: string; userId: number; clientId: string; now: Date; lifetimeSeconds: number; nonce: string | null }): IdTokenClaims {
  const iat = Math.floor(input.now.getTime() / 1000);
  const claims: IdTokenClaims = { iss: input.issuer, sub: String(input.userId), aud: input.clientId, exp: iat + input.lifetimeSeconds, iat };
  if (input.nonce !== null) claims.nonce = input.nonce;
  return claims;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Signs `claims` as a compact RS256 JWT with the key's `kid` in the header. The RSA operation runs
 * on libuv's thread pool (node:crypto's callback form), so the event loop keeps serving requests.
 */
export function signJwt(key: SigningKey, claims: object): Promise<string> {
  const input = `${b64({ alg: "RS256", typ: "JWT", kid: key.kid })}.${b64(claims)}`;
  return new Promise((resolve, reject) => {
    sign("sha256", Buffer.from(input), key.privateKey, (error, signature) => (error ? reject(error) : resolve(`${input}.${signature.toString("base64url")}`)));
  });
}

/** Signs id_tokens and publishes the public key. */
export interface IdTokenSigner {
  sign(claims: IdTokenClaims): Promise<string>;
  jwks(): Promise<Jwks>;
}

/** Options of {@link createIdTokenSigner}. */
export interface IdTokenSignerOptions {
  keys: OAuthKeyRepository;
  clock: Clock;
  /** The configured key; absent = the stored one (generated on first use). */
  signingKeyPem?: string | undefined;
  /** Retired keys still published in the JWKS (never used to sign). */
  previousSigningKeyPems?: readonly string[] | undefined;
  /** Seals the generated key before it is stored and opens it on load; default: plain text. */
  vault?: KeyVault | undefined;
}

/**
 * A signer over the configured PEM key, or — without one — over the key stored through `keys`
 * (generated on first use, then reused). The stored key is loaded once per signer. A configured
 * or retired key that is not an RSA private key of ≥ 2048 bits is refused here, at boot.
 */
export function createIdTokenSigner(options: IdTokenSignerOptions): Result<IdTokenSigner, "invalid_signing_key" | "invalid_previous_signing_key"> {
  const retired: SigningKey[] = [];
  for (const pem of options.previousSigningKeyPems ?? []) {
    const key = signingKeyFromPem(pem);
    if (key.isErr()) return err("invalid_previous_signing_key");
    retired.push(key.value);
  }
  let getKey: () => Promise<SigningKey>;
  if (options.signingKeyPem !== undefined) {
    const key = signingKeyFromPem(options.signingKeyPem);
    if (key.isErr()) return err(key.error);
    const configured = key.value;
    getKey = () => Promise.resolve(configured);
  } else {
    let pending: Promise<SigningKey> | null = null;
    getKey = () => {
      // Loaded lazily and once; a failed load (store unavailable) is retried on the next use.
      pending ??= loadStoredSigningKey(options.keys, options.clock.now(), options.vault).catch((cause: unknown) => {
        pending = null;
        throw cause;
      });
      return pending;
    };
  }
  return ok({
    sign: async (claims) => signJwt(await getKey(), claims),
    jwks: async () => jwksFor(await getKey(), retired),
  });
}
