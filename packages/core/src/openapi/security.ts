/**
 * How callers authenticate (spec "Authentication"): the security schemes of the document and each
 * route's requirement. Scopes are the API-wide `api`, `read_api` (reads) and the route's extra ones.
 */
import { OAUTH_PATHS } from "../oauth/discovery.js";
import { SCOPE_DESCRIPTIONS } from "../oauth/scopes.js";
import { acceptedScopes } from "../auth/scopes.js";
import type { AnyRoute } from "../http/router.js";

/** `components.securitySchemes`; `JOB-TOKEN` only when a route accepts job tokens. */
export function securitySchemes(baseUrl: string, routes: readonly AnyRoute[]): Record<string, unknown> {
  return {
    oauth2: {
      type: "oauth2",
      description: "OAuth 2.0 access token (`Authorization: Bearer <token>` or the `access_token` query parameter). PKCE (S256) is supported.",
      flows: {
        authorizationCode: {
          authorizationUrl: baseUrl + OAUTH_PATHS.authorize,
          tokenUrl: baseUrl + OAUTH_PATHS.token,
          refreshUrl: baseUrl + OAUTH_PATHS.token,
          scopes: SCOPE_DESCRIPTIONS,
        },
      },
    },
    bearer: { type: "http", scheme: "bearer", description: "An OAuth access token or a personal, project or group access token as `Authorization: Bearer <token>`." },
    privateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN", description: "A personal, impersonation, project or group access token (or the `private_token` query parameter)." },
    ...(routes.some((r) => r.auth.jobToken === true) ? { jobToken: { type: "apiKey", in: "header", name: "JOB-TOKEN", description: "A CI job token (or the `job_token` parameter), on the routes that accept it." } } : {}),
  };
}

/** The operation's `security`: any one scheme; `{}` (anonymous) too where the route allows it. */
export function routeSecurity(route: AnyRoute): Record<string, string[]>[] {
  const scopes = acceptedScopes(route, route.method);
  return [
    { oauth2: scopes },
    { bearer: scopes },
    { privateToken: scopes },
    ...(route.auth.jobToken === true ? [{ jobToken: [] }] : []),
    ...(route.auth.mode === "optional" ? [{}] : []),
  ];
}
