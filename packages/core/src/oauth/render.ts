/**
 * HTTP renderings of OAuth results: JSON bodies with exactly `Content-Type: application/json`
 * (client-compatibility 2) and `Cache-Control: no-store` + `Pragma: no-cache` (RFC 6749 §5.1,
 * checklist B2) on every success and every error.
 */
import type { HttpResponse } from "../http/types.js";
import type { OAuthError, OAuthErrorKind } from "./errors.js";

/** The realm named in `WWW-Authenticate` challenges. */
export const OAUTH_REALM = "forgekit";

/** Status per error kind: one table, so a kind without a status does not compile. */
export const OAUTH_ERROR_STATUS: Record<OAuthErrorKind, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  unsupported_response_type: 400,
  server_error: 500,
  temporarily_unavailable: 503,
  invalid_token: 401,
  insufficient_scope: 403,
  revoke_forbidden: 403,
  invalid_redirect_uri: 400,
  rate_limited: 429,
};

/** The `error` value the body carries for each kind (RFC 6749 §5.2, RFC 6750 §3.1). */
export function errorName(err: OAuthError): string {
  switch (err.code) {
    case "revoke_forbidden":
      return "unauthorized_client";
    case "invalid_redirect_uri":
      return "invalid_request";
    default:
      return err.code;
  }
}

/** A JSON response with the no-store headers. */
export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache", ...headers },
    body: JSON.stringify(body),
  };
}

/** RFC 6750 §3: auth-param values allow only %x20-21 / %x23-5B / %x5D-7E; others become `_`. */
function quoteParam(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "_")}"`;
}

/** The `WWW-Authenticate` challenge an error carries, if any. */
export function challengeFor(err: OAuthError): string | null {
  switch (err.code) {
    case "invalid_client":
      // RFC 6749 §5.2: a 401 for a client that used HTTP Basic MUST challenge with Basic; body
      // credentials get the same challenge, which also tells the client Basic is accepted.
      return `Basic realm=${quoteParam(OAUTH_REALM)}, charset="UTF-8"`;
    case "invalid_token":
      return `Bearer realm=${quoteParam(OAUTH_REALM)}, error="invalid_token", error_description=${quoteParam(err.description)}`;
    case "insufficient_scope":
      return `Bearer realm=${quoteParam(OAUTH_REALM)}, error="insufficient_scope", error_description=${quoteParam(err.description)}, scope=${quoteParam(err.scope)}`;
    default:
      return null;
  }
}

/** Renders an error as status, headers and a `{error, error_description}` body. */
export function renderOAuthError(err: OAuthError): HttpResponse {
  const headers: Record<string, string> = {};
  const challenge = challengeFor(err);
  if (challenge !== null) headers["WWW-Authenticate"] = challenge;
  if (err.code === "rate_limited") headers["Retry-After"] = String(err.retryAfterSeconds);
  const body: Record<string, string> = { error: errorName(err), error_description: err.description };
  // The reference's invalid_token bodies carry `"state":"unauthorized"` (conventions §1.6).
  if (err.code === "invalid_token") body.state = "unauthorized";
  if (err.code === "insufficient_scope") body.scope = err.scope;
  return oauthJson(OAUTH_ERROR_STATUS[err.code], body, headers);
}
