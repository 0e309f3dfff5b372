/**
 * The authorization endpoint's steps, without HTTP: begin (validate, then ask for login, show
 * consent, or — for trusted applications — approve at once) and submit (re-validate the posted
 * request, check the CSRF token, approve or deny). Approving stores the code's digest, bound to
 * client, user, redirect URI, scopes, challenge and nonce (checklist A8).
 */
import type { OAuthAuthorizationCode, OAuthAuthorizationCodeRepository } from "../ports/oauth-store.js";
import { audit } from "./audit.js";
import { validateAuthorizationRequest, type AuthorizationFailure, type AuthorizationRequest } from "./authorize-request.js";
import { CONSENT_DECISION_FIELD, CONSENT_TOKEN_FIELD } from "./consent-page.js";
import { consentTokenUse, issueConsentToken, loadConsentKey, verifyConsentToken, type ConsentBinding } from "./consent-csrf.js";
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
  return approvedRedirect(deps, request, userId, await storeCode(deps, deps.store.oauthCodes, request, userId));
}

interface IssuedCode {
  code: string;
  row: OAuthAuthorizationCode;
}

/** Stores a new code's digest through `codes` (the store, or a transaction's repositories). */
async function storeCode(deps: OAuthDeps, codes: OAuthAuthorizationCodeRepository, request: AuthorizationRequest, userId: number): Promise<IssuedCode> {
  const now = deps.clock.now();
  const code = generateSecret(deps.random, "authorizationCode");
  const row = await codes.create(
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
  return { code, row };
}

/** Audits an issued code (after it is committed) and builds the client redirect. */
function approvedRedirect(deps: OAuthDeps, request: AuthorizationRequest, userId: number, issued: IssuedCode): string {
  audit(deps.logger, "oauth.authorization_granted", { applicationId: request.application.id, userId, codeId: issued.row.id, scopes: request.scopes, pkce: request.codeChallenge !== null });
  return codeRedirectLocation(request.redirectUri, issued.code, request.state, deps.config.issuer);
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
  const key = await loadConsentKey(deps.store.oauthKeys, deps.random, now, deps.keyVault);
  return { kind: "consent", request, csrfToken: issueConsentToken(key, binding(request, user.id), now, deps.random) };
}

/** A consent form that is forged, stale, for another request or user, or already used. */
const staleForm: FinalStep = {
  kind: "page",
  error: oauthErrors.invalidRequest("The authorization form has expired or did not come from this site. Start again from the application."),
  status: 403,
};

/**
 * `POST /oauth/authorize` (the consent form): the posted request is validated again, the CSRF
 * token must have been issued to this user for exactly this request, not be stale and not have
 * been posted before, and the decision must be `approve` or `deny`. Returns a `redirect` or a
 * `page` step.
 */
export async function submitConsent(deps: OAuthDeps, form: URLSearchParams, user: OAuthUser): Promise<FinalStep> {
  const validated = await validateAuthorizationRequest(deps.store.oauthApplications, deps.config.issuer, form);
  if (validated.isErr()) return failureStep(validated.error);
  const request = validated.value;
  if (user.state !== "active") return { kind: "page", error: oauthErrors.accessDenied(), status: 403 };
  const now = deps.clock.now();
  const key = await loadConsentKey(deps.store.oauthKeys, deps.random, now, deps.keyVault);
  const token = formParam(form, CONSENT_TOKEN_FIELD);
  const tokenValue = token.isOk() ? token.value : undefined;
  if (tokenValue === undefined || !verifyConsentToken(key, binding(request, user.id), tokenValue, now, deps.config.consentLifetimeSeconds)) return staleForm;
  const decisionParam = formParam(form, CONSENT_DECISION_FIELD);
  const decision = decisionParam.isOk() ? decisionParam.value : undefined;
  if (decision !== "approve" && decision !== "deny") return { kind: "page", error: oauthErrors.invalidRequest("Choose Approve or Deny."), status: 400 };

  // The token is single-use: marking it used is the atomic step (a replay, even a concurrent one,
  // finds it marked and gets the stale-form page). Approval marks it and stores the code in one
  // transaction, so a failed insert leaves the form usable and no code exists without the mark.
  const use = consentTokenUse(tokenValue, deps.config.consentLifetimeSeconds);
  const replayed = (): FinalStep => {
    audit(deps.logger, "oauth.consent_replayed", { applicationId: request.application.id, userId: user.id });
    return staleForm;
  };
  if (decision === "deny") {
    if (!(await deps.store.oauthConsents.markUsed(use.digest, use.expiresAt))) return replayed();
    return { kind: "redirect", location: denyAuthorization(deps, request, user.id) };
  }
  const issued = await deps.store.transaction(async (tx) => ((await tx.oauthConsents.markUsed(use.digest, use.expiresAt)) ? storeCode(deps, tx.oauthCodes, request, user.id) : null));
  if (issued === null) return replayed();
  return { kind: "redirect", location: approvedRedirect(deps, request, user.id, issued) };
}

