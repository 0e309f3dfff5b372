/**
 * Reading access tokens: `GET /oauth/token/info`, the REST API's `OAuthTokenLookup`, and the
 * access check of `/oauth/userinfo`. Lookups go by digest (checklist H1).
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { OAuthAccessTokenRecord, OAuthTokenLookup } from "../auth/oauth-token-lookup.js";
import type { OAuthToken } from "../ports/oauth-store.js";
import type { OAuthDeps, OAuthUser } from "./deps.js";
import { secretDigest } from "./digest.js";
import { oauthErrors, type OAuthError } from "./errors.js";
import { buildTokenInfo, type TokenInfoBody } from "./token-info.js";

/**
 * The access token of a request, in the reference order: `access_token` query parameter, then
 * `Authorization: Bearer`, then `bearer_token` query parameter (conventions §1.1). Empty → undefined.
 */
export function readAccessToken(query: URLSearchParams, authorization: string | undefined): string | undefined {
  const fromQuery = query.get("access_token");
  if (fromQuery !== null && fromQuery !== "") return fromQuery;
  const m = /^bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? "");
  if (m !== null) return m[1];
  const bearer = query.get("bearer_token");
  return bearer === null || bearer === "" ? undefined : bearer;
}

/** Whether the pair's access token works at `now`: not revoked, and `now` before its expiry. */
export function isAccessTokenActive(token: OAuthToken, now: Date): boolean {
  return token.revokedAt === null && (token.expiresAt === null || now.getTime() < token.expiresAt.getTime());
}

async function activeToken(deps: Pick<OAuthDeps, "store" | "clock">, raw: string | undefined): Promise<OAuthToken | null> {
  if (raw === undefined) return null;
  const token = await deps.store.oauthTokens.findByAccessDigest(secretDigest(raw));
  return token !== null && isAccessTokenActive(token, deps.clock.now()) ? token : null;
}

/**
 * The token-info body, or `invalid_token` (401) for a missing, unknown, expired or revoked token
 * (F5) — and for the token of a user who is gone, blocked or deactivated: the REST API refuses
 * such a token, so token info must not call it valid.
 */
export function tokenInfo(deps: Pick<OAuthDeps, "store" | "clock" | "findUser">, rawToken: string | undefined): ResultAsync<TokenInfoBody, OAuthError> {
  const run = async (): Promise<Result<TokenInfoBody, OAuthError>> => {
    const token = await activeToken(deps, rawToken);
    if (token === null) return err(oauthErrors.invalidToken());
    const owner = await deps.findUser(token.userId);
    if (owner === null || owner.state !== "active") return err(oauthErrors.invalidToken());
    const app = token.applicationId === null ? null : await deps.store.oauthApplications.findById(token.applicationId);
    return ok(buildTokenInfo(token, app?.uid ?? null, deps.clock.now()));
  };
  return new ResultAsync(run());
}

/**
 * The REST API's view of OAuth access tokens (`config.oauthTokens`). It returns the row whatever
 * its state; authentication decides between expired, revoked and valid.
 */
export function createOAuthTokenLookup(deps: Pick<OAuthDeps, "store">): OAuthTokenLookup {
  return {
    async find(rawToken: string): Promise<OAuthAccessTokenRecord | null> {
      const token = await deps.store.oauthTokens.findByAccessDigest(secretDigest(rawToken));
      if (token === null) return null;
      return { id: token.id, userId: token.userId, scopes: [...token.scopes], expiresAt: token.expiresAt, revokedAt: token.revokedAt, applicationId: token.applicationId };
    },
  };
}

/** What `/oauth/userinfo` may disclose, once the token checks out. */
export interface UserinfoGrant {
  token: OAuthToken;
  user: OAuthUser;
}

/**
 * The access check of `/oauth/userinfo`: `invalid_token` (401) for a missing, unknown, expired or
 * revoked token or a user who is gone or inactive; `insufficient_scope` (403) without `openid`.
 */
export function authorizeUserinfo(deps: Pick<OAuthDeps, "store" | "clock" | "findUser">, rawToken: string | undefined): ResultAsync<UserinfoGrant, OAuthError> {
  const run = async (): Promise<Result<UserinfoGrant, OAuthError>> => {
    const token = await activeToken(deps, rawToken);
    if (token === null) return err(oauthErrors.invalidToken());
    if (!token.scopes.includes("openid")) return err(oauthErrors.insufficientScope("openid"));
    const user = await deps.findUser(token.userId);
    if (user === null || user.state !== "active") return err(oauthErrors.invalidToken());
    return ok({ token, user });
  };
  return new ResultAsync(run());
}
