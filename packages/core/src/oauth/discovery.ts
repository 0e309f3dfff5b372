/**
 * OpenID Connect discovery (OIDC Discovery 1.0 §3, RFC 8414): what the provider supports, with
 * `code_challenge_methods_supported: ["S256"]` advertised (RFC 9700 §2.1.1, checklist H7).
 */
import type { HttpResponse } from "../http/types.js";
import { OAUTH_SCOPES } from "./scopes.js";

/** Paths below the base URL where the provider's endpoints are served. */
export const OAUTH_PATHS = {
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  tokenInfo: "/oauth/token/info",
  revoke: "/oauth/revoke",
  userinfo: "/oauth/userinfo",
  jwks: "/oauth/discovery/keys",
  discovery: "/.well-known/openid-configuration",
} as const;

/** The discovery document for an issuer (the base URL without trailing slash). */
export function buildDiscoveryDocument(issuer: string) {
  return {
    issuer,
    authorization_endpoint: issuer + OAUTH_PATHS.authorize,
    token_endpoint: issuer + OAUTH_PATHS.token,
    revocation_endpoint: issuer + OAUTH_PATHS.revoke,
    userinfo_endpoint: issuer + OAUTH_PATHS.userinfo,
    jwks_uri: issuer + OAUTH_PATHS.jwks,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", "password"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    claim_types_supported: ["normal"],
    claims_supported: ["iss", "sub", "aud", "exp", "iat", "nonce", "name", "nickname", "preferred_username", "email", "email_verified", "profile", "picture", "groups"],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
  };
}

export type DiscoveryDocument = ReturnType<typeof buildDiscoveryDocument>;

/** A public, briefly cacheable JSON document (discovery, JWKS). */
export function renderPublicJson(body: unknown): HttpResponse {
  return { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" }, body: JSON.stringify(body) };
}
