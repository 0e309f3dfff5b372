/**
 * Generation of codes, tokens, client ids and client secrets from the `Random` port (RFC 6749
 * §10.10; checklist A8, H2). Every secret carries 256 random bits, base64url-encoded so it stays
 * in `[A-Za-z0-9_-]` (client-compatibility 9), behind a recognisable prefix for secret scanners.
 */
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Random } from "../ports/runtime.js";

/** Prefixes by secret kind. */
export const SECRET_PREFIXES = {
  accessToken: "fkoa_",
  refreshToken: "fkor_",
  authorizationCode: "fkoc_",
  clientSecret: "fkos_",
} as const;

export type SecretKind = keyof typeof SECRET_PREFIXES;

/** Random bytes per secret: 32 bytes = 256 bits (≥ the 160 bits RFC 6749 §10.10 asks for). */
export const SECRET_BYTES = 32;

/** Reads `n` random bytes from the port. */
export function randomBytes(random: Random, n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  random.read(bytes);
  return bytes;
}

/** A new secret of the given kind: prefix + 43 base64url characters. */
export function generateSecret(random: Random, kind: SecretKind): string {
  return SECRET_PREFIXES[kind] + encodeBase64urlNoPadding(randomBytes(random, SECRET_BYTES));
}

/** A new client id (`uid`): 64 lower-case hex characters, like the reference's application ids. */
export function generateClientId(random: Random): string {
  return encodeHexLowerCase(randomBytes(random, SECRET_BYTES));
}

/** An opaque identifier for a grant family (not a secret; 128 random bits, hex). */
export function generateFamilyId(random: Random): string {
  return encodeHexLowerCase(randomBytes(random, 16));
}
