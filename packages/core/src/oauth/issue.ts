/** Issuing a token pair: plaintext secrets for the response, digests for the store (checklist H1, H2). */
import type { NewOAuthToken, OAuthToken } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import type { OAuthConfig } from "./config.js";
import type { OAuthDeps } from "./deps.js";
import { secretDigest } from "./digest.js";
import { idTokenClaims } from "./id-token.js";
import { generateSecret } from "./secrets.js";
import { buildTokenResponse, type GrantType, type TokenResponseBody } from "./token-response.js";

export interface PairToIssue {
  familyId: string;
  familyCreatedAt: Date;
  applicationId: number | null;
  userId: number;
  scopes: string[];
  /** Issue a refresh token too (code and refresh grants). */
  withRefresh: boolean;
}

/** A pair ready to store, with the plaintext tokens kept aside for the response. */
export interface PreparedPair {
  row: NewOAuthToken;
  accessToken: string;
  refreshToken: string | null;
}

/** When a refresh token issued at `now` in a family begun at `familyCreatedAt` stops working. */
export function refreshExpiry(config: OAuthConfig, now: Date, familyCreatedAt: Date): Date | null {
  const limits = [
    config.refreshTokenIdleSeconds === null ? null : now.getTime() + config.refreshTokenIdleSeconds * 1000,
    config.refreshTokenAbsoluteSeconds === null ? null : familyCreatedAt.getTime() + config.refreshTokenAbsoluteSeconds * 1000,
  ].filter((t): t is number => t !== null);
  return limits.length === 0 ? null : new Date(Math.min(...limits));
}

/** Generates the secrets of a new pair and the row that stores their digests. */
export function preparePair(deps: Pick<OAuthDeps, "random" | "config">, pair: PairToIssue, now: Date): PreparedPair {
  const accessToken = generateSecret(deps.random, "accessToken");
  const refreshToken = pair.withRefresh ? generateSecret(deps.random, "refreshToken") : null;
  return {
    accessToken,
    refreshToken,
    row: {
      familyId: pair.familyId,
      familyCreatedAt: pair.familyCreatedAt,
      applicationId: pair.applicationId,
      userId: pair.userId,
      accessDigest: secretDigest(accessToken),
      refreshDigest: refreshToken === null ? null : secretDigest(refreshToken),
      scopes: pair.scopes,
      expiresIn: deps.config.accessTokenLifetimeSeconds,
      refreshExpiresAt: refreshToken === null ? null : refreshExpiry(deps.config, now, pair.familyCreatedAt),
    },
  };
}

/**
 * The token response for a stored pair, with an id_token when `openid` was granted to a client
 * (`clientUid`); logs `oauth.token_issued`.
 */
export async function respondWithPair(
  deps: Pick<OAuthDeps, "config" | "idTokens" | "logger">,
  grant: GrantType,
  stored: OAuthToken,
  prepared: PreparedPair,
  client: { uid: string } | null,
  nonce: string | null,
): Promise<TokenResponseBody> {
  let idToken: string | undefined;
  if (grant !== "password" && client !== null && stored.scopes.includes("openid")) {
    const claims = idTokenClaims({
      issuer: deps.config.issuer,
      userId: stored.userId,
      clientId: client.uid,
      now: stored.createdAt,
      lifetimeSeconds: deps.config.idTokenLifetimeSeconds,
      nonce,
    });
    idToken = await deps.idTokens.sign(claims);
  }
  audit(deps.logger, "oauth.token_issued", { grant, tokenId: stored.id, applicationId: stored.applicationId, userId: stored.userId, scopes: stored.scopes });
  return buildTokenResponse(grant, {
    accessToken: prepared.accessToken,
    refreshToken: prepared.refreshToken,
    expiresIn: stored.expiresIn,
    scopes: stored.scopes,
    createdAt: stored.createdAt,
    ...(idToken === undefined ? {} : { idToken }),
  });
}
