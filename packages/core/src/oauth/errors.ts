/**
 * The OAuth error union (DESIGN §4: OAuth errors are their own union), rendered as RFC 6749 §5.2
 * bodies by `render.ts`. Descriptions follow the reference provider's wording
 * (reference auth-oauth-conventions §1.2) so clients see familiar texts.
 */

/** Codes whose body `error` is the code itself. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error"
  | "temporarily_unavailable"
  | "invalid_token"
  | "insufficient_scope";

export type OAuthError =
  | { code: Exclude<OAuthErrorCode, "invalid_client" | "insufficient_scope">; description: string }
  /** 401; `basic` says the client tried HTTP Basic, so the challenge must be `Basic` (RFC 6749 §5.2). */
  | { code: "invalid_client"; description: string; basic: boolean }
  /** 403 for a resource that needs `scope`. */
  | { code: "insufficient_scope"; description: string; scope: string }
  /** 403 `unauthorized_client` from `/oauth/revoke`: the token belongs to another client. */
  | { code: "revoke_forbidden"; description: string }
  /** 400 page, never a redirect: unknown client or a redirect URI that does not match (RFC 6749 §4.1.2.1). */
  | { code: "invalid_redirect_uri"; description: string }
  /** 429 with `Retry-After`: too many failed client or password attempts (checklist B5). */
  | { code: "rate_limited"; description: string; retryAfterSeconds: number };

export type OAuthErrorKind = OAuthError["code"];

/** The reference descriptions. */
export const OAUTH_DESCRIPTIONS = {
  invalid_request:
    "The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.",
  invalid_client:
    "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
  invalid_grant:
    "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  unauthorized_client: "The client is not authorized to perform this request using this method.",
  unsupported_grant_type: "The authorization grant type is not supported by the authorization server.",
  invalid_scope: "The requested scope is invalid, unknown, or malformed.",
  access_denied: "The resource owner or authorization server denied the request.",
  unsupported_response_type: "The authorization server does not support this response type.",
  server_error:
    "The authorization server encountered an unexpected condition which prevented it from fulfilling the request.",
  temporarily_unavailable:
    "The authorization server is temporarily unable to handle the request due to a temporary overloading or maintenance of the authorization server.",
  invalid_token: "The access token is invalid",
  invalid_redirect_uri: "The redirect URI included is not valid.",
  revoke_forbidden: "You are not authorized to revoke this token",
  code_challenge_required: "Code challenge is required.",
  code_challenge_method: "The code_challenge_method must be one of S256.",
  rate_limited: "Too many failed attempts. Try again later.",
} as const;

type Simple = Exclude<OAuthErrorCode, "invalid_client" | "insufficient_scope">;
const simple = (code: Simple, description?: string): OAuthError => ({ code, description: description ?? OAUTH_DESCRIPTIONS[code] });

/** Constructors: the only way OAuth errors are built. */
export const oauthErrors = {
  invalidRequest: (description?: string): OAuthError => simple("invalid_request", description),
  /** `invalid_request` "Missing required parameter: <name>." */
  missingParam: (name: string): OAuthError => simple("invalid_request", `Missing required parameter: ${name}.`),
  /** `invalid_request` for a parameter sent more than once (RFC 6749 §3.1, §3.2). */
  repeatedParam: (name: string): OAuthError => simple("invalid_request", `Parameter sent more than once: ${name}.`),
  invalidClient: (basic: boolean): OAuthError => ({ code: "invalid_client", description: OAUTH_DESCRIPTIONS.invalid_client, basic }),
  invalidGrant: (): OAuthError => simple("invalid_grant"),
  unauthorizedClient: (): OAuthError => simple("unauthorized_client"),
  unsupportedGrantType: (): OAuthError => simple("unsupported_grant_type"),
  invalidScope: (): OAuthError => simple("invalid_scope"),
  accessDenied: (): OAuthError => simple("access_denied"),
  unsupportedResponseType: (): OAuthError => simple("unsupported_response_type"),
  serverError: (): OAuthError => simple("server_error"),
  temporarilyUnavailable: (): OAuthError => simple("temporarily_unavailable"),
  invalidToken: (): OAuthError => simple("invalid_token"),
  insufficientScope: (scope: string): OAuthError => ({
    code: "insufficient_scope",
    description: `Access to this resource requires scope "${scope}".`,
    scope,
  }),
  revokeForbidden: (): OAuthError => ({ code: "revoke_forbidden", description: OAUTH_DESCRIPTIONS.revoke_forbidden }),
  invalidRedirectUri: (): OAuthError => ({ code: "invalid_redirect_uri", description: OAUTH_DESCRIPTIONS.invalid_redirect_uri }),
  rateLimited: (retryAfterSeconds: number): OAuthError => ({
    code: "rate_limited",
    description: OAUTH_DESCRIPTIONS.rate_limited,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  }),
} as const;
