/**
 * The authorization endpoint's steps, without HTTP: begin (validate, then ask for login, show
 * consent, or — for trusted applications — approve at once) and submit (re-validate the posted
 * request, check the CSRF token, approve or deny). Approving stores the code's digest, bound to
 * client, user, redirect URI, scopes, challenge and nonce (checklist A8).
 */
import type { OAuthAuthorizationCode } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import { validateAuthorizationRequest, type AuthorizationFailure, type AuthorizationRequest } from "./authorize-request.js";
import { CONSENT_DECISION_FIELD, CONSENT_TOKEN_FIELD } from "./consent-page.js";
import { issueConsentToken, loadConsentKey, verifyConsentToken, type ConsentBinding } from "./consent-csrf.js";
import type { OAuthDeps, OAuthUser } from "./deps.js";
import { secretDigest } from "./digest.js";
import { oauthErrors } from "./errors.js";
import { formParam } from "./form.js";
import { codeRedirectLocation, errorRedirectLocation } from "./redirect.js";
import { generateFamilyId, generateSecret } from "./secrets.js";

/** What the endpoint does next. */
export type AuthorizationStep =
  /** Send the browser to the host's login page, returning to this request afterwards. */
  | { kind: "login" }
  /** Render the consent page for `request` with `csrfToken`. */
  | { kind: "consent"; request: AuthorizationRequest; csrfToken: string }
  /** 302 to `location` (a code or an error for the client). */
  | { kind: "redirect"; location: string }
  /** Render the error page with `status`; never redirect. */
  | Extract<AuthorizationFailure, { kind: "page" }>;

const binding = (request: AuthorizationRequest, userId: number): ConsentBinding => ({
  userId,
  clientId: request.application.uid,
  redirectUri: request.redirectUri,
  scopes: request.scopes,
  state: request.state,
  codeChallenge: request.codeChallenge,
  nonce: request.nonce,
});

type FinalStep = Extract<AuthorizationStep, { kind: "redirect" | "page" }>;

const failureStep = (failure: AuthorizationFailure): FinalStep =>
  failure.kind === "page" ? failure : { kind: "redirect", location: failure.location };

/** Issues a code for an approved request and returns the client redirect (302, never 307). */
export async function approveAuthorization(deps: OAuthDeps, request: AuthorizationRequest, userId: number): Promise<string> {
  const now = deps.clock.now();
  const code = generateSecret(deps.random, "authorizationCode");
  const row: OAuthAuthorizationCode = await deps.store.oauthCodes.create(
    {
      digest: secretDigest(code),
      familyId: generateFamilyId(deps.random),
      applicationId: request.application.id,
      userId,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge,
      nonce: request.nonce,
      expiresAt: new Date(now.getTime() + deps.config.authorizationCodeLifetimeSeconds * 1000),
    },
    now,
  );
  audit(deps.logger, "oauth.authorization_granted", { applicationId: request.application.id, userId, codeId: row.id, scopes: request.scopes, pkce: request.codeChallenge !== null });
  return codeRedirectLocation(request.redirectUri, code, request.state, deps.config.issuer);
}

/** The redirect telling the client the user denied the request. */
export function denyAuthorization(deps: Pick<OAuthDeps, "config" | "logger">, request: AuthorizationRequest, userId: number): string {
  audit(deps.logger, "oauth.authorization_denied", { applicationId: request.application.id, userId });
  return errorRedirectLocation(request.redirectUri, oauthErrors.accessDenied(), request.state, deps.config.issuer);
}

/**
 * `GET /oauth/authorize`: validates first (so bad requests never reach the login page), then asks
 * a signed-out visitor to log in, approves trusted applications at once, and otherwise returns the
 * consent step with a fresh CSRF token.
 */
export async function beginAuthorization(deps: OAuthDeps, params: URLSearchParams, user: OAuthUser | null): Promise<AuthorizationStep> {
  const validated = await validateAuthorizationRequest(deps.store.oauthApplications, deps.config.issuer, params);
  if (validated.isErr()) return failureStep(validated.error);
  const request = validated.value;
  if (user === null) return { kind: "login" };
  if (user.state !== "active") return { kind: "page", error: oauthErrors.accessDenied(), status: 403 };
  if (request.application.trusted) return { kind: "redirect", location: await approveAuthorization(deps, request, user.id) };
  const now = deps.clock.now();
  const key = await loadConsentKey(deps.store.oauthKeys, deps.random, now);
  return { kind: "consent", request, csrfToken: issueConsentToken(key, binding(request, user.id), now) };
}

/**
 * `POST /oauth/authorize` (the consent form): the posted request is validated again, the CSRF
 * token must have been issued to this user for exactly this request and not be stale, and the
 * decision must be `approve` or `deny`. Returns a `redirect` or a `page` step.
 */
export async function submitConsent(deps: OAuthDeps, form: URLSearchParams, user: OAuthUser): Promise<FinalStep> {
  const validated = await validateAuthorizationRequest(deps.store.oauthApplications, deps.config.issuer, form);
  if (validated.isErr()) return failureStep(validated.error);
  const request = validated.value;
  if (user.state !== "active") return { kind: "page", error: oauthErrors.accessDenied(), status: 403 };
  const now = deps.clock.now();
  const key = await loadConsentKey(deps.store.oauthKeys, deps.random, now);
  const token = formParam(form, CONSENT_TOKEN_FIELD);
  const tokenValue = token.isOk() ? token.value : undefined;
  if (!verifyConsentToken(key, binding(request, user.id), tokenValue, now, deps.config.consentLifetimeSeconds)) {
    return { kind: "page", error: oauthErrors.invalidRequest("The authorization form has expired or did not come from this site. Start again from the application."), status: 403 };
  }
  const decision = formParam(form, CONSENT_DECISION_FIELD);
  if (decision.isOk() && decision.value === "approve") return { kind: "redirect", location: await approveAuthorization(deps, request, user.id) };
  if (decision.isOk() && decision.value === "deny") return { kind: "redirect", location: denyAuthorization(deps, request, user.id) };
  return { kind: "page", error: oauthErrors.invalidRequest("Choose Approve or Deny."), status: 400 };
}
