/**
 * PKCE (RFC 7636) with S256 only (spec; RFC 9700 §2.1.1): `plain`, or a challenge without a
 * method (which RFC 7636 §4.3 defines as plain), is refused.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { err, ok, type Result } from "neverthrow";
import { constantTimeEqualStrings } from "./digest.js";
import { OAUTH_DESCRIPTIONS, oauthErrors, type OAuthError } from "./errors.js";

/** The only supported method. */
export const PKCE_METHOD = "S256";

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Whether `verifier` is 43–128 characters of `A-Z a-z 0-9 - . _ ~` (RFC 7636 §4.1). */
export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** `BASE64URL(SHA256(ASCII(verifier)))` without padding (RFC 7636 §4.2). */
export function s256Challenge(verifier: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
}

/**
 * Checks the PKCE parameters of an authorization request. Returns the challenge, `null` when the
 * request carries none, or `invalid_request`: a method without a challenge, a challenge without
 * `S256`, or a challenge that is not 43 base64url characters (checklist A7).
 */
export function checkChallenge(challenge: string | undefined, method: string | undefined): Result<string | null, OAuthError> {
  if (challenge === undefined) {
    return method === undefined ? ok(null) : err(oauthErrors.missingParam("code_challenge"));
  }
  if (method !== PKCE_METHOD) return err(oauthErrors.invalidRequest(OAUTH_DESCRIPTIONS.code_challenge_method));
  if (!CHALLENGE.test(challenge)) return err(oauthErrors.invalidRequest("The code_challenge must be 43 base64url characters."));
  return ok(challenge);
}

/**
 * Whether `verifier` proves `challenge`: the verifier must be well formed and its S256 transform
 * equal to the challenge, compared in constant time (checklist C5).
 */
export function verifyCodeVerifier(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier)) return false;
  return constantTimeEqualStrings(s256Challenge(verifier), challenge);
}
