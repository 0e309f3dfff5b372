/**
 * The authorization code grant (RFC 6749 §4.1.3), with and without PKCE. The code is consumed
 * atomically before any check, so every redemption attempt — good or bad — burns it (checklist
 * C1, C5); a code presented again revokes every token issued from it (C2).
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { OAuthApplication, OAuthAuthorizationCode, OAuthToken } from "../../ports/oauth-store.js";
import { audit } from "../audit.js";
import { authenticateClient } from "../client-auth.js";
import type { ClientCredentials } from "../client-credentials.js";
import type { OAuthDeps, OAuthUser } from "../deps.js";
import { secretDigest } from "../digest.js";
import { oauthErrors, type OAuthError } from "../errors.js";
import { preparePair, respondWithPair, type PreparedPair } from "../issue.js";
import { verifyCodeVerifier } from "../pkce.js";
import type { TokenResponseBody } from "../token-response.js";

export interface CodeGrantInput {
  client: ClientCredentials;
  code?: string;
  redirectUri?: string;
  codeVerifier?: string;
  remoteAddress?: string;
}

/** Why a consumed code did not redeem; all are `invalid_grant` to the client. */
type Refusal = "other_client" | "expired" | "redirect_uri" | "pkce" | "user";

/** The checks after consumption (RFC 6749 §4.1.3; RFC 7636 §4.6; RFC 9700 §2.1.1). */
function refusal(code: OAuthAuthorizationCode, app: OAuthApplication, input: CodeGrantInput, user: OAuthUser | null, now: Date): Refusal | null {
  if (code.applicationId !== app.id) return "other_client";
  if (now.getTime() >= code.expiresAt.getTime()) return "expired";
  if (code.redirectUri !== input.redirectUri) return "redirect_uri";
  if (code.codeChallenge === null) {
    // A verifier for a code issued without a challenge is a downgrade attempt (checklist C6).
    if (input.codeVerifier !== undefined) return "pkce";
  } else if (input.codeVerifier === undefined || !verifyCodeVerifier(input.codeVerifier, code.codeChallenge)) {
    return "pkce";
  }
  if (user === null || user.state !== "active") return "user";
  return null;
}

type Outcome =
  | { kind: "issued"; stored: OAuthToken; prepared: PreparedPair; code: OAuthAuthorizationCode }
  | { kind: "replayed"; code: OAuthAuthorizationCode; revoked: number }
  | { kind: "refused"; code: OAuthAuthorizationCode; reason: Refusal };

async function redeem(deps: OAuthDeps, input: CodeGrantInput & { code: string; redirectUri: string }): Promise<Result<TokenResponseBody, OAuthError>> {
  const authenticated = await authenticateClient(deps, input.client, input.remoteAddress);
  if (authenticated.isErr()) return err(authenticated.error);
  const app = authenticated.value;
  if (app === null) return err(oauthErrors.invalidClient(false));

  const digest = secretDigest(input.code);
  // Accounts are read before the transaction: a store with one connection cannot serve a second
  // query while a transaction holds it. The user id of a code never changes.
  const peek = await deps.store.oauthCodes.findByDigest(digest);
  if (peek === null) return err(oauthErrors.invalidGrant());
  const user = await deps.findUser(peek.userId);
  const now = deps.clock.now();

  // Consume + issue (or consume + revoke on replay) in one transaction (checklist H6).
  const outcome = await deps.store.transaction(async (tx): Promise<Outcome> => {
    const code = await tx.oauthCodes.consume(digest, now);
    if (code === null) return { kind: "replayed", code: peek, revoked: await tx.oauthTokens.revokeFamily(peek.familyId, now) };
    const reason = refusal(code, app, input, user, now);
    if (reason !== null) return { kind: "refused", code, reason };
    const prepared = preparePair(deps, { familyId: code.familyId, familyCreatedAt: now, applicationId: app.id, userId: code.userId, scopes: code.scopes, withRefresh: true }, now);
    return { kind: "issued", stored: await tx.oauthTokens.create(prepared.row, now), prepared, code };
  });

  switch (outcome.kind) {
    case "replayed":
      audit(deps.logger, "oauth.code_replayed", { codeId: outcome.code.id, applicationId: outcome.code.applicationId, presentedBy: app.id, tokensRevoked: outcome.revoked });
      return err(oauthErrors.invalidGrant());
    case "refused":
      audit(deps.logger, "oauth.code_refused", { codeId: outcome.code.id, applicationId: app.id, reason: outcome.reason });
      return err(oauthErrors.invalidGrant());
    case "issued":
      return ok(await respondWithPair(deps, "authorization_code", outcome.stored, outcome.prepared, app, outcome.code.nonce));
  }
}

/**
 * Exchanges a code for tokens. Errors: `invalid_request` (missing `code` or `redirect_uri`),
 * `invalid_client` (no or failed client authentication — a confidential client must send its
 * secret even with a verifier), `invalid_grant` (unknown, used, expired, another client's, other
 * redirect URI, PKCE failure, downgrade, user gone), `rate_limited`.
 */
export function exchangeAuthorizationCode(deps: OAuthDeps, input: CodeGrantInput): ResultAsync<TokenResponseBody, OAuthError> {
  const { code, redirectUri } = input;
  if (code === undefined) return errAsync(oauthErrors.missingParam("code"));
  if (redirectUri === undefined) return errAsync(oauthErrors.missingParam("redirect_uri"));
  return new ResultAsync(redeem(deps, { ...input, code, redirectUri }));
}
