/**
 * Access-token strings: a recognisable prefix plus 27 url-safe characters (20 random bytes), and the
 * hex SHA-256 digest under which a token is stored (DESIGN §5: secrets only as digests).
 */
import { createHash } from "node:crypto";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Random } from "../ports/runtime.js";

const RANDOM_BYTES = 20;

/** Generates a new token string from the Random port. */
export function generateToken(random: Random, prefix: string): string {
  const bytes = new Uint8Array(RANDOM_BYTES);
  random.read(bytes);
  return `${prefix}${encodeBase64urlNoPadding(bytes)}`;
}

/**
 * The stored digest of a token string (the whole string, prefix included): lower-case hex SHA-256
 * of its UTF-8 bytes, by node:crypto's native hash (every token-authenticated request computes one).
 */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** `bytes` random bytes as lower-case hex (bot user name suffixes). */
export function randomHex(random: Random, bytes: number): string {
  const buffer = new Uint8Array(bytes);
  random.read(buffer);
  return encodeHexLowerCase(buffer);
}
