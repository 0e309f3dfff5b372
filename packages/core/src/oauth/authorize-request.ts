/**
 * Validation of an authorization request (`GET /oauth/authorize`, and again when the consent form
 * is posted). Failures about the client or the redirect URI are shown as a page and never
 * redirect (RFC 6749 §4.1.2.1, checklist A2); every later failure redirects to the client with
 * `error`, `error_description` and `state` (A5).
 */
import { err, ok, type Result } from "neverthrow";
import type { OAuthApplication, OAuthApplicationRepository } from "../ports/oauth-store.js";
import { OAUTH_DESCRIPTIONS, oauthErrors, type OAuthError } from "./errors.js";
import { formParam } from "./form.js";
import { checkChallenge } from "./pkce.js";
import { resolveRedirectUri } from "./redirect-uri.js";
import { errorRedirectLocation } from "./redirect.js";
import { resolveScopes } from "./scopes.js";

/** A validated authorization request. */
export interface AuthorizationRequest {
  application: OAuthApplication;
  /** Exactly as the client sent it. */
  redirectUri: string;
  scopes: string[];
  /** Echoed unchanged; null when none was sent. */
  state: string | null;
  codeChallenge: string | null;
  nonce: string | null;
}

/** How a failed request is answered. */
export type AuthorizationFailure =
  /** Render `renderAuthorizationErrorPage(error, status)`; never redirect. */
  | { kind: "page"; error: OAuthError; status: number }
  /** Answer 302 with `Location: location` (the client's redirect URI with the error). */
  | { kind: "redirect"; location: string; error: OAuthError };

/** Longest accepted `nonce` (it is copied into the id_token). */
export const MAX_NONCE_LENGTH = 512;

const page = (error: OAuthError, status = 400): AuthorizationFailure => ({ kind: "page", error, status });

/**
 * Validates the parameters (a query, or the consent form's body) against the registered
 * application. Order: client_id, redirect_uri (page errors); then state, response_type, scope,
 * PKCE and nonce (redirect errors). Parameters sent twice are `invalid_request` (A6).
 */
export async function validateAuthorizationRequest(
  applications: Pick<OAuthApplicationRepository, "findByUid">,
  issuer: string,
  params: URLSearchParams,
): Promise<Result<AuthorizationRequest, AuthorizationFailure>> {
  const clientId = formParam(params, "client_id");
  if (clientId.isErr()) return err(page(clientId.error));
  if (clientId.value === undefined) return err(page(oauthErrors.missingParam("client_id")));
  const application = await applications.findByUid(clientId.value);
  if (application === null) return err(page(oauthErrors.invalidClient(false)));

  const requestedUri = formParam(params, "redirect_uri");
  if (requestedUri.isErr()) return err(page(oauthErrors.invalidRedirectUri()));
  const redirectUri = resolveRedirectUri(application.redirectUris, requestedUri.value);
  if (redirectUri.isErr()) return err(page(oauthErrors.invalidRedirectUri()));

  const stateParam = formParam(params, "state");
  const state = stateParam.isOk() ? (stateParam.value ?? null) : null;
  const fail = (error: OAuthError): Result<never, AuthorizationFailure> =>
    err({ kind: "redirect", location: errorRedirectLocation(redirectUri.value, error, state, issuer), error });
  if (stateParam.isErr()) return fail(stateParam.error);

  const responseType = formParam(params, "response_type");
  if (responseType.isErr()) return fail(responseType.error);
  if (responseType.value === undefined) return fail(oauthErrors.missingParam("response_type"));
  if (responseType.value !== "code") return fail(oauthErrors.unsupportedResponseType());

  const scope = formParam(params, "scope");
  if (scope.isErr()) return fail(scope.error);
  const scopes = resolveScopes(scope.value, application.scopes);
  if (scopes.isErr()) return fail(scopes.error);

  const challenge = formParam(params, "code_challenge");
  if (challenge.isErr()) return fail(challenge.error);
  const method = formParam(params, "code_challenge_method");
  if (method.isErr()) return fail(method.error);
  const codeChallenge = checkChallenge(challenge.value, method.value);
  if (codeChallenge.isErr()) return fail(codeChallenge.error);
  // RFC 9700 §2.1.1: public clients MUST use PKCE.
  if (codeChallenge.value === null && !application.confidential) return fail(oauthErrors.invalidRequest(OAUTH_DESCRIPTIONS.code_challenge_required));

  const nonce = formParam(params, "nonce");
  if (nonce.isErr()) return fail(nonce.error);
  if (nonce.value !== undefined && nonce.value.length > MAX_NONCE_LENGTH) return fail(oauthErrors.invalidRequest("The nonce is too long."));

  return ok({ application, redirectUri: redirectUri.value, scopes: scopes.value, state, codeChallenge: codeChallenge.value, nonce: nonce.value ?? null });
}

/** The request's parameters, to carry through the consent form and validate again on submit. */
export function authorizationRequestParams(request: AuthorizationRequest): [string, string][] {
  const out: [string, string][] = [
    ["client_id", request.application.uid],
    ["redirect_uri", request.redirectUri],
    ["response_type", "code"],
    ["scope", request.scopes.join(" ")],
  ];
  if (request.state !== null) out.push(["state", request.state]);
  if (request.codeChallenge !== null) out.push(["code_challenge", request.codeChallenge], ["code_challenge_method", "S256"]);
  if (request.nonce !== null) out.push(["nonce", request.nonce]);
  return out;
}
