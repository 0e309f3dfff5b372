/**
 * The resource owner password credentials grant, kept because the spec requires it (RFC 9700
 * §2.4 says it MUST NOT be used; checklist E1): off per application unless enabled, refused for
 * two-factor users, throttled per username + address and per address (B5), the same answer for
 * an unknown user and a wrong password, and an access token only (spec). Without client
 * authentication only the default scopes are issued: nothing vouches for the caller but the
 * password, so no `sudo` or `admin_mode` token comes out of it.
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { audit } from "../audit.js";
import { authenticateClient } from "../client-auth.js";
import type { ClientCredentials } from "../client-credentials.js";
import type { OAuthDeps } from "../deps.js";
import { oauthErrors, type OAuthError } from "../errors.js";
import { preparePair, respondWithPair } from "../issue.js";
import { rateLimitKeys } from "../rate-limiter.js";
import { DEFAULT_OAUTH_SCOPES, resolveScopes } from "../scopes.js";
import { generateFamilyId } from "../secrets.js";
import type { TokenResponseBody } from "../token-response.js";

export interface PasswordGrantInput {
  client: ClientCredentials;
  username?: string;
  password?: string;
  scope?: string;
  remoteAddress?: string;
}

/**
 * What a password grant without client authentication may issue: the default scopes (`api`).
 * A registered application's own scopes cap the grant when the client authenticates.
 */
export const CLIENTLESS_PASSWORD_SCOPES: readonly string[] = DEFAULT_OAUTH_SCOPES;

async function grant(deps: OAuthDeps, input: PasswordGrantInput & { username: string; password: string }): Promise<Result<TokenResponseBody, OAuthError>> {
  const authenticated = await authenticateClient(deps, input.client, input.remoteAddress);
  if (authenticated.isErr()) return err(authenticated.error);
  const app = authenticated.value;
  if (app === null && !deps.config.passwordGrantWithoutClient) return err(oauthErrors.invalidClient(false));
  if (app !== null && !app.ropcEnabled) return err(oauthErrors.unauthorizedClient());

  // Scope first: a request that cannot succeed never reaches the password check.
  const scopes = resolveScopes(input.scope, app?.scopes ?? CLIENTLESS_PASSWORD_SCOPES);
  if (scopes.isErr()) return err(scopes.error);

  const now = deps.clock.now();
  const userKey = rateLimitKeys.password(input.username, input.remoteAddress);
  // Per address too: without it, one address could try one password on any number of usernames.
  const addressKey = input.remoteAddress === undefined ? null : rateLimitKeys.address(input.remoteAddress);
  const waits = await Promise.all([
    deps.rateLimiter.retryAfter(userKey, now),
    addressKey === null ? 0 : deps.rateLimiter.retryAfter(addressKey, now, deps.config.rateLimit.maxFailuresPerAddress),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) {
    audit(deps.logger, "oauth.rate_limited", { kind: "password", applicationId: app?.id ?? null });
    return err(oauthErrors.rateLimited(wait));
  }
  const user = await deps.verifyPassword(input.username, input.password);
  if (user === null || user.twoFactorEnabled || user.state !== "active") {
    await Promise.all([userKey, ...(addressKey === null ? [] : [addressKey])].map((k) => deps.rateLimiter.recordFailure(k, now)));
    audit(deps.logger, "oauth.password_grant_failed", { applicationId: app?.id ?? null });
    return err(oauthErrors.invalidGrant());
  }
  // Only the user's own count: a success must not wipe what an address did to other usernames
  // (an attacker with one account of their own could otherwise reset it between guesses).
  await deps.rateLimiter.reset(userKey);

  const prepared = preparePair(deps, { familyId: generateFamilyId(deps.random), familyCreatedAt: now, applicationId: app?.id ?? null, userId: user.id, scopes: scopes.value, withRefresh: false }, now);
  const stored = await deps.store.oauthTokens.create(prepared.row, now);
  return ok(await respondWithPair(deps, "password", stored, prepared, app, null));
}

/**
 * Exchanges a username and password for an access token. Errors: `invalid_request` (missing
 * username or password), `invalid_client` (presented credentials fail; or no client while the
 * instance requires one), `unauthorized_client` (the application's password switch is off),
 * `invalid_scope` (outside the application's scopes, or outside {@link CLIENTLESS_PASSWORD_SCOPES}
 * without a client), `invalid_grant` (bad credentials, two-factor user, inactive user), `rate_limited`.
 */
export function passwordGrant(deps: OAuthDeps, input: PasswordGrantInput): ResultAsync<TokenResponseBody, OAuthError> {
  const { username, password } = input;
  if (username === undefined) return errAsync(oauthErrors.missingParam("username"));
  if (password === undefined) return errAsync(oauthErrors.missingParam("password"));
  return new ResultAsync(grant(deps, { ...input, username, password }));
}
