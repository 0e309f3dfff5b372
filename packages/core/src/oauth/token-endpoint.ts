/**
 * `POST /oauth/token` without HTTP: reads the form and the client credentials, and dispatches on
 * `grant_type` to the code, refresh and password grants. The caller renders the result with
 * `renderTokenResponse` or `renderOAuthError`.
 */
import { errAsync, type ResultAsync } from "neverthrow";
import { readClientCredentials } from "./client-credentials.js";
import type { OAuthDeps } from "./deps.js";
import { oauthErrors, type OAuthError } from "./errors.js";
import { formParams } from "./form.js";
import { exchangeAuthorizationCode } from "./grants/authorization-code.js";
import { passwordGrant } from "./grants/password.js";
import { refreshAccessToken } from "./grants/refresh-token.js";
import type { TokenResponseBody } from "./token-response.js";

export interface TokenEndpointRequest {
  /** The decoded form body (`readOAuthForm`). */
  form: URLSearchParams;
  /** The `Authorization` header, if any. */
  authorization?: string;
  /** The client's address, for throttling. */
  remoteAddress?: string;
}

const PARAMS = ["grant_type", "code", "redirect_uri", "code_verifier", "refresh_token", "scope", "username", "password"] as const;

/** The device grant is named so the refusal can say it is unsupported (spec). */
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/**
 * Handles one token request. A parameter sent twice is `invalid_request` (RFC 6749 §3.2); a
 * missing `grant_type` is `invalid_request`; implicit, client credentials, device and unknown
 * grants are `unsupported_grant_type`.
 */
export function handleTokenRequest(deps: OAuthDeps, request: TokenEndpointRequest): ResultAsync<TokenResponseBody, OAuthError> {
  const params = formParams(request.form, PARAMS);
  if (params.isErr()) return errAsync(params.error);
  const client = readClientCredentials(request.authorization, request.form);
  if (client.isErr()) return errAsync(client.error);
  const p = params.value;
  const common = { client: client.value, ...(request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress }) };
  switch (p.grant_type) {
    case undefined:
      return errAsync(oauthErrors.missingParam("grant_type"));
    case "authorization_code":
      return exchangeAuthorizationCode(deps, { ...common, code: p.code, redirectUri: p.redirect_uri, codeVerifier: p.code_verifier });
    case "refresh_token":
      return refreshAccessToken(deps, { ...common, refreshToken: p.refresh_token, scope: p.scope });
    case "password":
      return passwordGrant(deps, { ...common, username: p.username, password: p.password, scope: p.scope });
    case DEVICE_GRANT:
      return errAsync({ code: "unsupported_grant_type", description: "The device authorization grant is not supported." });
    default:
      return errAsync(oauthErrors.unsupportedGrantType());
  }
}
