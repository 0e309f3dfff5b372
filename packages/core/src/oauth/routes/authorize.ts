/**
 * `GET /oauth/authorize` and `POST /oauth/authorize` (spec "OAuth 2.0 provider"; checklist A1–A9):
 * validation first, then the host's login page for signed-out visitors, the consent page, or a 302
 * to the client. The consent form posts back here with its CSRF token.
 */
import { beginAuthorization, submitConsent, type AuthorizationStep } from "../authorize.js";
import { renderConsentPage } from "../consent-page.js";
import { renderAuthorizationErrorPage } from "../error-page.js";
import { readOAuthForm } from "../form.js";
import { OAUTH_PATHS } from "../discovery.js";
import { loginRedirectLocation } from "../redirect.js";
import type { HttpResponse } from "../../http/types.js";
import type { User } from "../../accounts/types.js";
import { basePath, redirectResponse, sessionUser, type OAuthEndpoint, type OAuthRouteContext } from "./context.js";

/** Parameters of an authorization request, carried from the consent form back to a fresh GET. */
const REQUEST_PARAMS = ["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method", "nonce"];

function render(ctx: OAuthRouteContext, step: AuthorizationStep, user: User | null, rawQuery: string): HttpResponse {
  switch (step.kind) {
    case "login":
      return redirectResponse(loginRedirectLocation(ctx.deps.config, rawQuery));
    case "redirect":
      return redirectResponse(step.location);
    case "page":
      return renderAuthorizationErrorPage(step.error, step.status);
    case "consent": {
      // `beginAuthorization` asks for consent only with a signed-in user.
      const who = user === null ? { username: "" } : { username: user.username, ...(user.name === "" ? {} : { name: user.name }) };
      const action = `${basePath(ctx.deps.config.issuer)}${OAUTH_PATHS.authorize}`;
      return renderConsentPage({ request: step.request, user: who, csrfToken: step.csrfToken, action });
    }
  }
}

/** `GET /oauth/authorize`. */
export function authorizeGet(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const user = await sessionUser(ctx.config, req);
    const step = await beginAuthorization(ctx.deps, new URLSearchParams(req.rawQuery), user);
    return render(ctx, step, user, req.rawQuery);
  };
}

/**
 * `POST /oauth/authorize` (the consent form). A visitor whose session ended meanwhile is sent to
 * log in and then back to the authorization request (without the stale form token).
 */
export function authorizePost(ctx: OAuthRouteContext): OAuthEndpoint {
  return async (req) => {
    const form = readOAuthForm(req);
    if (form.isErr()) return renderAuthorizationErrorPage(form.error, 400);
    const user = await sessionUser(ctx.config, req);
    if (user === null) {
      const again = new URLSearchParams([...form.value].filter(([name]) => REQUEST_PARAMS.includes(name)));
      return redirectResponse(loginRedirectLocation(ctx.deps.config, again.toString()));
    }
    const step = await submitConsent(ctx.deps, form.value, user);
    return render(ctx, step, user, "");
  };
}

