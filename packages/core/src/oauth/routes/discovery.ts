/** `/.well-known/openid-configuration` (and its RFC 8414 twin) and the JWKS the id_tokens verify against. */
import { buildDiscoveryDocument, renderPublicJson } from "../discovery.js";
import type { OAuthEndpoint, OAuthRouteContext } from "./context.js";

/** The discovery document (OIDC Discovery 1.0 §4; RFC 8414 §3). */
export function discoveryGet(ctx: OAuthRouteContext): OAuthEndpoint {
  const body = buildDiscoveryDocument(ctx.deps.config.issuer);
  return () => Promise.resolve(renderPublicJson(body));
}

/** The public signing key set (RFC 7517), loading or generating the stored key on first use. */
export function jwksGet(ctx: OAuthRouteContext): OAuthEndpoint {
  return async () => renderPublicJson(await ctx.deps.idTokens.jwks());
}
