/** Shortcuts through the OAuth flows for tests: obtain a code, tokens, a form for the token endpoint. */
import type { OAuthApplication } from "../../ports/oauth-store.js";
import { approveAuthorization } from "../../oauth/authorize.js";
import { validateAuthorizationRequest } from "../../oauth/authorize-request.js";
import type { OAuthDeps } from "../../oauth/deps.js";
import { exchangeAuthorizationCode } from "../../oauth/grants/authorization-code.js";
import type { TokenResponseBody } from "../../oauth/token-response.js";

/** The documented PKCE test vector (verifier → S256 challenge). */
export const TEST_VERIFIER = "ks02i3jdikdo2k0dkfodf3m39rjfjsdk0wk349rj3jrhf";
/** The S256 code challenge of {@link TEST_VERIFIER}. */
export const TEST_CHALLENGE = "2i0WFA-0AerkjQm4X4oDEhqA17QIAKNjXpagHBXmO_U";

/** Options of the shortcut that obtains an authorization code: redirect URI, scope, state, PKCE and nonce. */
export interface CodeOptions {
  redirectUri?: string;
  scope?: string;
  state?: string;
  /** Send `TEST_CHALLENGE` with S256 (default: only for public applications). */
  pkce?: boolean;
  nonce?: string;
}

/** Runs the authorization request and approval for `userId`; returns the plaintext code. */
export async function obtainCode(deps: OAuthDeps, app: OAuthApplication, userId: number, options: CodeOptions = {}): Promise<string> {
  const params = new URLSearchParams({ client_id: app.uid, redirect_uri: options.redirectUri ?? app.redirectUris[0]!, response_type: "code" });
  if (options.scope !== undefined) params.set("scope", options.scope);
  if (options.state !== undefined) params.set("state", options.state);
  if (options.nonce !== undefined) params.set("nonce", options.nonce);
  if (options.pkce ?? !app.confidential) {
    params.set("code_challenge", TEST_CHALLENGE);
    params.set("code_challenge_method", "S256");
  }
  const request = (await validateAuthorizationRequest(deps.store.oauthApplications, deps.config.issuer, params))._unsafeUnwrap();
  const location = new URL(await approveAuthorization(deps, request, userId));
  return location.searchParams.get("code")!;
}

/** A code exchanged for tokens with the client secret (and the test verifier when PKCE was used). */
export async function obtainTokens(
  deps: OAuthDeps,
  app: OAuthApplication,
  clientSecret: string | null,
  userId: number,
  options: CodeOptions = {},
): Promise<TokenResponseBody> {
  const code = await obtainCode(deps, app, userId, options);
  const pkce = options.pkce ?? !app.confidential;
  const result = await exchangeAuthorizationCode(deps, {
    client: { clientId: app.uid, clientSecret, basic: false },
    code,
    redirectUri: options.redirectUri ?? app.redirectUris[0]!,
    ...(pkce ? { codeVerifier: TEST_VERIFIER } : {}),
  });
  return result._unsafeUnwrap();
}
