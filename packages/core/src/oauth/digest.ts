/** SHA-256 digests of secrets and constant-time comparison (DESIGN §5; checklist H1, B4). */
import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeHexLowerCase } from "@oslojs/encoding";

const utf8 = new TextEncoder();

/** Lower-case hex SHA-256 of the UTF-8 bytes of `secret`: how codes, tokens and client secrets are stored. */
export function secretDigest(secret: string): string {
  return encodeHexLowerCase(sha256(utf8.encode(secret)));
}

/**
 * Compares two strings in time that depends only on their lengths (callers compare values of a
 * fixed length — digests, S256 challenges — so the length reveals nothing).
 */
export function constantTimeEqualStrings(a: string, b: string): boolean {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return false;
  return constantTimeEqual(x, y);
}

/** Whether `secret` hashes to `digest`, compared in constant time. */
export function secretMatchesDigest(secret: string, digest: string): boolean {
  return constantTimeEqualStrings(secretDigest(secret), digest);
}
