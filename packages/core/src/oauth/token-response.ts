/**
 * The token endpoint's success body, exactly the spec's "Token response": `token_type` `bearer`,
 * `expires_in` in seconds, `refresh_token` and `created_at` for the code and refresh grants,
 * `scope` as one space-separated string (client-compatibility 7); the password grant returns only
 * `access_token`, `token_type` and `expires_in` (spec). Absent values are omitted, never null.
 */
import type { HttpResponse } from "../http/types.js";
import { oauthJson } from "./render.js";
import { formatScopes } from "./scopes.js";

/** The grants this provider supports (spec: no implicit, no device grant). */
export type GrantType = "authorization_code" | "refresh_token" | "password";

/** What a grant issued, in plaintext, just before it is rendered (never stored or logged). */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds; null = never expires (then `expires_in` is omitted). */
  expiresIn: number | null;
  scopes: readonly string[];
  createdAt: Date;
  /** OpenID Connect id_token when `openid` was granted. */
  idToken?: string;
}

/** The JSON body of a token response. */
export interface TokenResponseBody {
  access_token: string;
  token_type: "bearer";
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  created_at?: number;
  id_token?: string;
}

/** Unix seconds of a date. */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** Builds the body for `grant` from what it issued. */
export function buildTokenResponse(grant: GrantType, issued: IssuedTokens): TokenResponseBody {
  const body: TokenResponseBody = { access_token: issued.accessToken, token_type: "bearer" };
  if (issued.expiresIn !== null) body.expires_in = issued.expiresIn;
  if (grant === "password") return body;
  if (issued.refreshToken !== null) body.refresh_token = issued.refreshToken;
  if (issued.scopes.length > 0) body.scope = formatScopes(issued.scopes);
  body.created_at = unixSeconds(issued.createdAt);
  if (issued.idToken !== undefined) body.id_token = issued.idToken;
  return body;
}

/** 200 with the no-store headers and exactly `Content-Type: application/json`. */
export function renderTokenResponse(body: TokenResponseBody): HttpResponse {
  return oauthJson(200, body);
}
