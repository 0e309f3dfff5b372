/**
 * `POST /oauth/revoke` (RFC 7009) without HTTP. Unknown, invalid or already revoked tokens answer
 * 200 `{}` (§2.2); a token of another client is refused with 403 and not revoked (checklist F3);
 * revoking either half of a pair revokes both (F4).
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { OAuthToken } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import { authenticateClient } from "./client-auth.js";
import { readClientCredentials } from "./client-credentials.js";
import type { OAuthDeps } from "./deps.js";
import { secretDigest } from "./digest.js";
import { oauthErrors, type OAuthError } from "./errors.js";
import { formParams } from "./form.js";
import type { TokenEndpointRequest } from "./token-endpoint.js";

/** The empty JSON object every successful revocation answers with. */
export type RevokeResponseBody = Record<string, never>;

/** Finds the pair by either half; `token_type_hint` only decides which half is tried first (F1). */
async function findEitherHalf(deps: Pick<OAuthDeps, "store">, token: string, hint: string | undefined): Promise<OAuthToken | null> {
  const digest = secretDigest(token);
  const byAccess = () => deps.store.oauthTokens.findByAccessDigest(digest);
  const byRefresh = () => deps.store.oauthTokens.findByRefreshDigest(digest);
  return hint === "refresh_token" ? ((await byRefresh()) ?? (await byAccess())) : ((await byAccess()) ?? (await byRefresh()));
}

async function revoke(deps: OAuthDeps, request: TokenEndpointRequest, token: string, hint: string | undefined): Promise<Result<RevokeResponseBody, OAuthError>> {
  const credentials = readClientCredentials(request.authorization, request.form);
  if (credentials.isErr()) return err(credentials.error);
  const authenticated = await authenticateClient(deps, credentials.value, request.remoteAddress);
  if (authenticated.isErr()) return err(authenticated.error);
  const app = authenticated.value;

  const row = await findEitherHalf(deps, token, hint);
  if (row === null) return ok({});
  // A token issued to a client can be revoked only by that client; one issued without a client
  // (password grant) by whoever holds it.
  if (row.applicationId !== null && row.applicationId !== app?.id) return err(oauthErrors.revokeForbidden());
  if (await deps.store.oauthTokens.revoke(row.id, deps.clock.now())) {
    audit(deps.logger, "oauth.token_revoked", { tokenId: row.id, applicationId: row.applicationId, userId: row.userId });
  }
  return ok({});
}

/**
 * Revokes the token in the form (`token`, optional `token_type_hint`), authenticating the client
 * by Basic or body credentials (public clients by `client_id`). Errors: `invalid_request`
 * (missing `token`, repeated parameters), `invalid_client`, `revoke_forbidden` (403), `rate_limited`.
 */
export function revokeToken(deps: OAuthDeps, request: TokenEndpointRequest): ResultAsync<RevokeResponseBody, OAuthError> {
  const params = formParams(request.form, ["token", "token_type_hint"] as const);
  if (params.isErr()) return errAsync(params.error);
  const { token, token_type_hint: hint } = params.value;
  if (token === undefined) return errAsync(oauthErrors.missingParam("token"));
  return new ResultAsync(revoke(deps, request, token, hint));
}
