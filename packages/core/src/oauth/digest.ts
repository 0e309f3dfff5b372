/** SHA-256 digests of secrets and constant-time comparison (DESIGN §5; checklist H1, B4). */
import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Lower-case hex SHA-256 of the UTF-8 bytes of `secret`: how codes, tokens and client secrets are
 * stored. node:crypto's native hash: every token request computes several.
 */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/**
 * Compares two strings in time that depends only on their lengths (callers compare values of a
 * fixed length — digests, S256 challenges — so the length reveals nothing).
 */
export function constantTimeEqualStrings(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether `secret` hashes to `digest`, compared in constant time. */
export function secretMatchesDigest(secret: string, digest: string): boolean {
  return constantTimeEqualStrings(secretDigest(secret), digest);
}
