/**
 * Cross-origin access to the OAuth endpoints (spec "Cross-origin"; client-compatibility 24;
 * checklist G2): any origin may call them, without credentials (`*`, never
 * `Allow-Credentials`). Preflight is answered for `/oauth/token`, `/oauth/revoke` and
 * `/oauth/userinfo` only, and only when every requested header is a simple-request header or
 * `Authorization` — a preflight asking for `X-Requested-With` gets no allow headers.
 */
import type { HttpResponse } from "../http/types.js";
import { OAUTH_PATHS } from "./discovery.js";

/** Methods per endpoint that answer preflight. */
export const PREFLIGHT_METHODS: Readonly<Record<string, readonly string[]>> = {
  [OAUTH_PATHS.token]: ["POST"],
  [OAUTH_PATHS.revoke]: ["POST"],
  [OAUTH_PATHS.userinfo]: ["GET", "POST"],
};

/** The CORS-safelisted request header names (Fetch standard) plus `Authorization`. */
export const ALLOWED_REQUEST_HEADERS: readonly string[] = ["accept", "accept-language", "content-language", "content-type", "authorization"];

/** Headers for an actual (non-preflight) cross-origin response from any `/oauth` endpoint. */
export function oauthCorsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined ? {} : { "Access-Control-Allow-Origin": "*" };
}

/**
 * Answers an `OPTIONS` request to `path` (below the base URL). `null` when the path has no
 * preflight (the router answers as for any unknown method); otherwise 204 with the allow headers,
 * or 403 without any when the method or a requested header is not allowed.
 */
export function answerOAuthPreflight(path: string, headers: Record<string, string | undefined>): HttpResponse | null {
  const methods = PREFLIGHT_METHODS[path];
  if (methods === undefined) return null;
  const refused: HttpResponse = { status: 403, headers: {} };
  const method = headers["access-control-request-method"];
  if (method === undefined || !methods.includes(method)) return refused;
  const requested = (headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  if (!requested.every((h) => ALLOWED_REQUEST_HEADERS.includes(h))) return refused;
  return {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": [...methods, "OPTIONS"].join(", "),
      "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, Accept-Language, Content-Language",
      "Access-Control-Max-Age": "600",
    },
  };
}
