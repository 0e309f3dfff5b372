/**
 * `POST /oauth/token`, `POST /oauth/revoke` and `GET /oauth/token/info` over the grant, revocation
 * and introspection services. Every answer is JSON with `Cache-Control: no-store` (checklist B2).
 */
import { readOAuthForm } from "../form.js";
import { readAccessToken, tokenInfo } from "../introspect.js";
import { oauthJson, renderOAuthError } from "../render.js";
import { revokeToken } from "../revoke.js";
import { handleTokenRequest, type TokenEndpointRequest } from "../token-endpoint.js";
import { renderTokenResponse } from "../token-response.js";
import type { HttpRequest } from "../../http/types.js";
import type { OAuthEndpoint, OAuthRouteContext } from "./context.js";

function endpointRequest(req: HttpRequest, form: URLSearchParams): TokenEndpointRequest {
  return {
    form,
    ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }),
    ...(req.remoteAddress === undefined ? {} : { remoteAddress: req.remoteAddress }),
  };
}

/** `POST /oauth/token`: the code, refresh and password grants (form-encoded; checklist B1). */
export function tokenPost(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const form = readOAuthForm(req);
    if (form.isErr()) return renderOAuthError(form.error);
    const result = await handleTokenRequest(ctx.deps, endpointRequest(req, form.value));
    return result.match(renderTokenResponse, renderOAuthError);
  };
}

/** `POST /oauth/revoke` (RFC 7009): 200 `{}` for revoked, unknown and already revoked tokens. */
export function revokePost(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const form = readOAuthForm(req);
    if (form.isErr()) return renderOAuthError(form.error);
    const result = await revokeToken(ctx.deps, endpointRequest(req, form.value));
    return result.match((body) => oauthJson(200, body), renderOAuthError);
  };
}

/** `GET /oauth/token/info`: token from `access_token` (query) or `Authorization: Bearer`. */
export function tokenInfoGet(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const raw = readAccessToken(new URLSearchParams(req.rawQuery), req.headers.authorization);
    const result = await tokenInfo(ctx.deps, raw);
    return result.match((body) => oauthJson(200, body), renderOAuthError);
  };
}
