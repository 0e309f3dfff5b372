/**
 * The authorization endpoint's HTML error page, used when the client cannot be trusted with a
 * redirect (unknown client, bad redirect URI — RFC 6749 §4.1.2.1, checklist A2) or the consent
 * form is stale. Never a redirect: no `Location` header.
 */
import type { HttpResponse } from "../http/types.js";
import type { OAuthError } from "./errors.js";
import { escapeHtml, htmlPage } from "./html.js";
import { errorName } from "./render.js";

/** Renders the error page (default status 400). */
export function renderAuthorizationErrorPage(error: OAuthError, status = 400): HttpResponse {
  const body = [
    "<main>",
    '<h1>An error has occurred</h1>',
    '<div class="error" role="alert">',
    `<p>${escapeHtml(error.description)}</p>`,
    `<p>Error code: <code>${escapeHtml(errorName(error))}</code></p>`,
    "</div>",
    "<p>Return to the application and start again. If this keeps happening, contact the application's developer.</p>",
    "</main>",
  ].join("\n");
  return htmlPage(status, "Authorization error", body);
}
