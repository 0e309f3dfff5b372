/**
 * The `/oauth/*` and discovery endpoints as one handler that `fk.handle` tries before the REST
 * API: `null` for any other path. It answers CORS per the spec (actual requests from any origin,
 * preflight for token, revoke and userinfo only), HEAD like GET, 405 for other methods, and never
 * rejects: an infrastructure failure is a logged (redacted) 500.
 */
import { errors } from "../../errors.js";
import { logInternal, renderError } from "../../http/render-error.js";
import type { HttpRequest, HttpResponse } from "../../http/types.js";
import { answerOAuthPreflight, oauthCorsHeaders } from "../cors.js";
import { OAUTH_PATHS } from "../discovery.js";
import { oauthErrors } from "../errors.js";
import { unavailableIn } from "../../ports/store-errors.js";
import { renderOAuthError } from "../render.js";
import { authorizeGet, authorizePost } from "./authorize.js";
import type { OAuthEndpoint, OAuthRouteContext } from "./context.js";
import { discoveryGet, jwksGet } from "./discovery.js";
import { redactQuery } from "./log.js";
import { revokePost, tokenInfoGet, tokenPost } from "./token.js";
import { userinfoEndpoint } from "./userinfo.js";

export type { OAuthRouteContext } from "./context.js";
export { redactQuery, SECRET_QUERY_PARAMS } from "./log.js";
export { userinfoProfile } from "./userinfo.js";

/** RFC 8414 metadata path; served with the same document as OpenID discovery. */
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";

type Methods = Partial<Record<"GET" | "POST", OAuthEndpoint>>;

/** Handles a request below the mount point, or returns `null` when the path is not an OAuth endpoint. */
export type OAuthHandler = (req: HttpRequest) => Promise<HttpResponse | null>;

function endpoints(ctx: OAuthRouteContext): ReadonlyMap<string, Methods> {
  const userinfo = userinfoEndpoint(ctx);
  const discovery = discoveryGet(ctx);
  return new Map<string, Methods>([
    [OAUTH_PATHS.authorize, { GET: authorizeGet(ctx), POST: authorizePost(ctx) }],
    [OAUTH_PATHS.token, { POST: tokenPost(ctx) }],
    [OAUTH_PATHS.revoke, { POST: revokePost(ctx) }],
    [OAUTH_PATHS.tokenInfo, { GET: tokenInfoGet(ctx) }],
    [OAUTH_PATHS.userinfo, { GET: userinfo, POST: userinfo }],
    [OAUTH_PATHS.jwks, { GET: jwksGet(ctx) }],
    [OAUTH_PATHS.discovery, { GET: discovery }],
    [AUTHORIZATION_SERVER_METADATA_PATH, { GET: discovery }],
  ]);
}

const allowOf = (methods: Methods): string[] => {
  const names = Object.keys(methods);
  return [...names, ...(names.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
};

/** Builds the handler. */
/** An unexpected throw: 503 `temporarily_unavailable` + Retry-After when the store is down, else 500 `server_error`. */
function oauthFailure(cause: unknown): HttpResponse {
  const down = unavailableIn(cause);
  if (down === undefined) return renderOAuthError(oauthErrors.serverError());
  const response = renderOAuthError(oauthErrors.temporarilyUnavailable());
  return { ...response, headers: { ...response.headers, "Retry-After": String(down.retryAfterSeconds) } };
}

export function createOAuthHandler(ctx: OAuthRouteContext): OAuthHandler {
  const table = endpoints(ctx);
  const { logger } = ctx.config;
  const { bodyBytes, uriLength } = ctx.config.limits;

  async function serve(req: HttpRequest, methods: Methods): Promise<HttpResponse> {
    if (req.path.length + 1 + req.rawQuery.length > uriLength) return renderError(errors.uriTooLong());
    if (req.body !== undefined && req.body.length > bodyBytes) return renderError(errors.payloadTooLarge());
    const method = req.method.toUpperCase();
    if (method === "OPTIONS") {
      const plain: HttpResponse = { status: 204, headers: { Allow: allowOf(methods).join(", ") } };
      return req.headers["access-control-request-method"] === undefined ? plain : (answerOAuthPreflight(req.path, req.headers) ?? plain);
    }
    const endpoint = method === "HEAD" ? methods.GET : methods[method as keyof Methods];
    if (endpoint === undefined) return renderError(errors.methodNotAllowed(allowOf(methods)));
    const response = await endpoint(req);
    return method === "HEAD" ? { status: response.status, headers: response.headers } : response;
  }

  return async (req) => {
    const methods = table.get(req.path);
    if (methods === undefined) return null;
    let response: HttpResponse;
    try {
      response = await serve(req, methods);
    } catch (cause) {
      logInternal(logger, cause);
      response = oauthFailure(cause);
    }
    // Pages are browser navigations, not cross-origin API calls; everything else may be called from any origin.
    if (req.path !== OAUTH_PATHS.authorize && req.method.toUpperCase() !== "OPTIONS") {
      response = { ...response, headers: { ...oauthCorsHeaders(req.headers.origin), ...response.headers } };
    }
    try {
      logger.log("debug", "oauth.request", { method: req.method, path: req.path, query: redactQuery(req.rawQuery), status: response.status });
    } catch {
      // A failing logger must not fail the request.
    }
    return response;
  };
}
