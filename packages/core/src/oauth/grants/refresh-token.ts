/**
 * The refresh token grant (RFC 6749 §6) with rotation: every use returns a new pair and the old
 * access and refresh tokens stop working at once (spec); rotation is a compare-and-swap in the
 * store; presenting a rotated-out refresh token, or losing the race to rotate one, is treated as
 * theft and revokes the whole grant family (RFC 9700 §4.14.2; checklist D1–D5).
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { OAuthApplication, OAuthToken } from "../../ports/oauth-store.js";
import { audit } from "../audit.js";
import { authenticateClient } from "../client-auth.js";
import type { ClientCredentials } from "../client-credentials.js";
import type { OAuthDeps } from "../deps.js";
import { secretDigest } from "../digest.js";
import { oauthErrors, type OAuthError } from "../errors.js";
import { preparePair, respondWithPair } from "../issue.js";
import { parseScopeParam } from "../scopes.js";
import type { TokenResponseBody } from "../token-response.js";

export interface RefreshGrantInput {
  client: ClientCredentials;
  refreshToken?: string;
  /** Optional narrowing of the original scopes (client-compatibility 8: Authlib sends it). */
  scope?: string;
  remoteAddress?: string;
}

/** The requested scopes: the original ones when omitted, else a subset of them (checklist D5). */
function narrowScopes(requested: string | undefined, original: readonly string[]): Result<string[], OAuthError> {
  const parsed = parseScopeParam(requested);
  if (parsed.isErr()) return err(oauthErrors.invalidScope());
  if (parsed.value === null) return ok([...original]);
  return parsed.value.every((s) => original.includes(s)) ? ok(parsed.value) : err(oauthErrors.invalidScope());
}

async function reuseDetected(deps: OAuthDeps, token: OAuthToken, presentedBy: OAuthApplication | null): Promise<OAuthError> {
  const revoked = await deps.store.oauthTokens.revokeFamily(token.familyId, deps.clock.now());
  audit(deps.logger, "oauth.refresh_reuse_detected", { tokenId: token.id, applicationId: token.applicationId, presentedBy: presentedBy?.id ?? null, tokensRevoked: revoked });
  return oauthErrors.invalidGrant();
}

async function refresh(deps: OAuthDeps, input: RefreshGrantInput & { refreshToken: string }): Promise<Result<TokenResponseBody, OAuthError>> {
  const authenticated = await authenticateClient(deps, input.client, input.remoteAddress);
  if (authenticated.isErr()) return err(authenticated.error);
  const app = authenticated.value;

  const token = await deps.store.oauthTokens.findByRefreshDigest(secretDigest(input.refreshToken));
  if (token === null) return err(oauthErrors.invalidGrant());
  // Bound to its client (checklist D4): another client, or none for a client's token, is refused.
  if (token.applicationId !== (app?.id ?? null)) return err(oauthErrors.invalidGrant());
  if (token.rotatedAt !== null) return err(await reuseDetected(deps, token, app));
  const now = deps.clock.now();
  if (token.revokedAt !== null) return err(oauthErrors.invalidGrant());
  if (token.refreshExpiresAt !== null && now.getTime() >= token.refreshExpiresAt.getTime()) return err(oauthErrors.invalidGrant());

  const scopes = narrowScopes(input.scope, token.scopes);
  if (scopes.isErr()) return err(scopes.error);
  const user = await deps.findUser(token.userId);
  if (user === null || user.state !== "active") return err(oauthErrors.invalidGrant());

  const prepared = preparePair(
    deps,
    { familyId: token.familyId, familyCreatedAt: token.familyCreatedAt, applicationId: token.applicationId, userId: token.userId, scopes: scopes.value, withRefresh: true },
    now,
  );
  const stored = await deps.store.oauthTokens.rotate(token.id, prepared.row, now);
  // Losing the compare-and-swap means the same refresh token was used twice at once.
  if (stored === null) return err(await reuseDetected(deps, token, app));
  return ok(await respondWithPair(deps, "refresh_token", stored, prepared, app, null));
}

/**
 * Rotates a refresh token. `redirect_uri` and `code_verifier` may be sent and are ignored
 * (client-compatibility 8). Errors: `invalid_request` (missing `refresh_token`), `invalid_client`
 * (presented credentials fail, or a confidential client without its secret), `invalid_grant`
 * (unknown, revoked, rotated — which revokes the family —, expired, another client's, user gone),
 * `invalid_scope`, `rate_limited`.
 */
export function refreshAccessToken(deps: OAuthDeps, input: RefreshGrantInput): ResultAsync<TokenResponseBody, OAuthError> {
  const { refreshToken } = input;
  if (refreshToken === undefined) return errAsync(oauthErrors.missingParam("refresh_token"));
  return new ResultAsync(refresh(deps, { ...input, refreshToken }));
}
