/**
 * Redirects back to the client (RFC 6749 §4.1.2 and §4.1.2.1): parameters are appended to the
 * redirect URI's own query, `state` echoed exactly when one was sent (client-compatibility 11),
 * and `iss` names the issuer (RFC 9207) so clients can detect mix-up attacks.
 */
import type { OAuthError } from "./errors.js";
import { errorName } from "./render.js";

/** Appends form-encoded parameters to a URI that has no fragment, keeping its query. */
export function appendQuery(uri: string, params: readonly (readonly [string, string])[]): string {
  const query = new URLSearchParams(params.map(([k, v]): [string, string] => [k, v])).toString();
  if (query === "") return uri;
  if (!uri.includes("?")) return `${uri}?${query}`;
  return uri.endsWith("?") || uri.endsWith("&") ? uri + query : `${uri}&${query}`;
}

const withState = (state: string | null, issuer: string): [string, string][] => [...(state === null ? [] : [["state", state] as [string, string]]), ["iss", issuer]];

/** The success redirect carrying the authorization code. */
export function codeRedirectLocation(redirectUri: string, code: string, state: string | null, issuer: string): string {
  return appendQuery(redirectUri, [["code", code], ...withState(state, issuer)]);
}

/** The error redirect carrying `error`, `error_description` and `state`. */
export function errorRedirectLocation(redirectUri: string, error: OAuthError, state: string | null, issuer: string): string {
  return appendQuery(redirectUri, [["error", errorName(error)], ["error_description", error.description], ...withState(state, issuer)]);
}

/**
 * Where a signed-out visitor of `/oauth/authorize` is sent: the host's login page with the full
 * authorization URL (`${issuer}/oauth/authorize?<query>`) to return to afterwards.
 */
export function loginRedirectLocation(config: { issuer: string; loginUrl: string; returnToParam: string }, rawQuery: string): string {
  const returnTo = `${config.issuer}/oauth/authorize${rawQuery === "" ? "" : `?${rawQuery}`}`;
  return appendQuery(config.loginUrl, [[config.returnToParam, returnTo]]);
}
