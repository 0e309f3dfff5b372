/**
 * The consent page: server-rendered, works without JavaScript, names the application and what
 * each scope allows in plain words, and posts Approve or Deny with a CSRF token (checklist A9).
 */
import type { HttpResponse } from "../http/types.js";
import { authorizationRequestParams, type AuthorizationRequest } from "./authorize-request.js";
import { escapeHtml, formActionSource, htmlPage } from "./html.js";
import { describeScope } from "./scopes.js";

/** The form field carrying the CSRF token. */
export const CONSENT_TOKEN_FIELD = "consent_token";
/** The form field carrying the decision: `approve` or `deny`. */
export const CONSENT_DECISION_FIELD = "decision";

export interface ConsentPageInput {
  request: AuthorizationRequest;
  /** The signed-in user, shown so they know which account they are granting. */
  user: { username: string; name?: string };
  /** From `issueConsentToken`. */
  csrfToken: string;
  /** Absolute or root-relative URL the form posts to (the authorization endpoint). */
  action: string;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

function destination(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.host === "" ? url.protocol : url.host;
  } catch {
    return redirectUri;
  }
}

/** Renders the consent page with its security headers (200). */
export function renderConsentPage(input: ConsentPageInput): HttpResponse {
  const { request, user } = input;
  const app = escapeHtml(request.application.name);
  const who = user.name === undefined ? `@${user.username}` : `${user.name} (@${user.username})`;
  const scopes = request.scopes
    .map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(describeScope(s))}</li>`)
    .join("\n");
  const fields = [...authorizationRequestParams(request), [CONSENT_TOKEN_FIELD, input.csrfToken] as [string, string]]
    .map(([k, v]) => hidden(k, v))
    .join("\n");
  const body = [
    '<main aria-labelledby="consent-title">',
    `<h1 id="consent-title">Authorize ${app}?</h1>`,
    `<p><strong>${app}</strong> wants to access your account <strong>${escapeHtml(who)}</strong>.</p>`,
    '<h2 id="scopes-title">It will be able to:</h2>',
    `<ul aria-labelledby="scopes-title">\n${scopes}\n</ul>`,
    `<p>After you decide, you will be sent to <code>${escapeHtml(destination(request.redirectUri))}</code>.</p>`,
    `<form method="post" action="${escapeHtml(input.action)}">`,
    fields,
    '<div class="actions">',
    `<button type="submit" name="${CONSENT_DECISION_FIELD}" value="deny">Deny</button>`,
    `<button type="submit" name="${CONSENT_DECISION_FIELD}" value="approve" class="primary">Approve</button>`,
    "</div>",
    "</form>",
    "</main>",
  ].join("\n");
  const target = formActionSource(request.redirectUri);
  return htmlPage(200, `Authorize ${request.application.name}`, body, target === null ? [] : [target]);
}
