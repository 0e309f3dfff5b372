/**
 * The one exhaustive code → HTTP table (DESIGN §4). A ForgekitError code without a row here is a
 * compile error. Bodies follow the spec's "Errors" section and, where it is silent, the reference's
 * helper bodies (auth-oauth-conventions §2.3, §3.1, §3.6).
 */
import type { ErrorCode, ForgekitError } from "../errors.js";
import type { Logger } from "../ports/runtime.js";
import { isOverloaded, isStoreUnavailable } from "../ports/store-errors.js";
import { jsonResponse } from "./response.js";
import type { HttpResponse } from "./types.js";

type ErrorOf<C extends ErrorCode> = Extract<ForgekitError, { code: C }>;

/** The realm rack-oauth2 puts on every bearer challenge (reference §2.3). */
export const BEARER_REALM = "Protected by OAuth 2.0";

const INVALID_TOKEN_DESCRIPTIONS: Record<ErrorOf<"invalid_token">["reason"], string> = {
  expired: "Token is expired. You can either do re-authorization or token refresh.",
  revoked: "Token was revoked. You have to re-authorize from the user.",
  impersonation_disabled: "Token is an impersonation token but impersonation was disabled.",
};

/** Message of 403 insufficient_scope (reference §2.3, rack-oauth2). */
export const INSUFFICIENT_SCOPE_DESCRIPTION = "The request requires higher privileges than provided by the access token.";

const RENDER: { [C in ErrorCode]: (e: ErrorOf<C>) => HttpResponse } = {
  not_found: (e) => jsonResponse(404, { message: e.thing === undefined ? "404 Not Found" : `404 ${e.thing} Not Found` }),
  record_not_found: () => jsonResponse(404, { message: "404 Not found" }),
  route_not_found: () => jsonResponse(404, { error: "404 Not Found" }),
  method_not_allowed: (e) => jsonResponse(405, { message: "405 Method Not Allowed" }, { allow: e.allow.join(", ") }),
  not_allowed_error: (e) => jsonResponse(405, { error: e.message }),
  missing_param: (e) => jsonResponse(400, { message: `400 (Bad request) "${e.param}" not given` }),
  invalid_param: (e) => jsonResponse(400, { error: `${e.param} ${e.reason ?? "is invalid"}` }),
  validation: (e) => jsonResponse(400, { message: e.messages }),
  bad_request_message: (e) => jsonResponse(400, { message: e.message }),
  bad_request: (e) => jsonResponse(400, { message: e.reason === undefined ? "400 Bad request" : `400 Bad request - ${e.reason}` }),
  // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
  unauthorized: () => jsonResponse(401, { message: "401 Unauthorized" }, { "www-authenticate": `Bearer realm="${BEARER_REALM}"` }),
  invalid_token: (e) => {
    const description = INVALID_TOKEN_DESCRIPTIONS[e.reason];
    return jsonResponse(
      401,
      { error: "invalid_token", error_description: description },
      { "www-authenticate": `Bearer realm="${BEARER_REALM}", error="invalid_token", error_description="${description}"` },
    );
  },
  forbidden: (e) => jsonResponse(403, { message: e.reason === undefined ? "403 Forbidden" : `403 Forbidden - ${e.reason}` }),
  // No WWW-Authenticate here, like the reference (§2.3).
  insufficient_scope: (e) =>
    jsonResponse(403, { error: "insufficient_scope", error_description: INSUFFICIENT_SCOPE_DESCRIPTION, scope: e.scopes.join(" ") }),
  conflict: (e) => jsonResponse(409, { message: e.reason ?? "409 Conflict" }),
  precondition_failed: () => jsonResponse(412, { message: "412 Precondition Failed" }),
  payload_too_large: () => jsonResponse(413, { message: "413 Request Entity Too Large" }),
  uri_too_long: () => jsonResponse(414, { message: "414 Request-URI Too Large" }),
  unsupported_media_type: () => jsonResponse(415, { message: "415 Unsupported Media Type" }),
  unprocessable: (e) => jsonResponse(422, { message: e.reason ?? "422 Unprocessable Entity" }),
  // Integer seconds, never an HTTP-date: python-gitlab sleeps int(Retry-After) (client-compatibility §6.18).
  rate_limited: (e) =>
    jsonResponse(429, { message: "429 Too Many Requests" }, { "retry-after": String(Math.max(1, Math.ceil(e.retryAfterSeconds))) }),
  spam: (e) =>
    e.captcha === undefined
      ? jsonResponse(400, { message: { error: e.message } })
      : jsonResponse(409, {
          needs_captcha_response: true,
          spam_log_id: e.captcha.spamLogId,
          captcha_site_key: e.captcha.siteKey,
          message: { error: e.message },
        }),
  unavailable: (e) =>
    jsonResponse(503, { message: "503 Service Unavailable" }, { "retry-after": String(Math.max(1, Math.ceil(e.retryAfterSeconds))) }),
  internal: () => jsonResponse(500, { message: "500 Internal Server Error" }),
};

/** Options of {@link renderError}. */
export interface RenderErrorOptions {
  /** Receives `internal` causes (redacted); never echoed to the client. */
  logger?: Logger | undefined;
}

/** Renders any ForgekitError as the spec's status, headers and body. `internal` causes are logged. */
export function renderError(error: ForgekitError, options: RenderErrorOptions = {}): HttpResponse {
  if (error.code === "internal" || error.code === "unavailable") logInternal(options.logger, error.cause);
  const render = RENDER[error.code] as (e: ForgekitError) => HttpResponse;
  return render(error);
}

/** Logs an unexpected failure through the host's logger, with secrets masked (DESIGN §4). */
export function logInternal(logger: Logger | undefined, cause: unknown): void {
  if (logger === undefined) return;
  try {
    if (isStoreUnavailable(cause)) logger.log("warn", "store.unavailable", describeCause(cause));
    else if (isOverloaded(cause)) logger.log("warn", "server.overloaded", describeCause(cause));
    else logger.log("error", "http.internal_error", describeCause(cause));
  } catch {
    // A failing logger must not turn a 500 into a crash.
  }
}

/** An unexpected failure's cause as log fields (`name`, `message`, `stack`), secrets masked. */
export function describeCause(cause: unknown): Record<string, unknown> {
  if (cause instanceof Error) {
    return { name: cause.name, message: redact(cause.message), stack: cause.stack === undefined ? undefined : redact(cause.stack) };
  }
  let text: string;
  try {
    text = typeof cause === "string" ? cause : JSON.stringify(cause) ?? String(cause);
  } catch {
    text = Object.prototype.toString.call(cause);
  }
  return { message: redact(text) };
}

/**
 * Masks anything shaped like a secret: long runs of token characters that contain a digit
 * (access tokens, codes, client secrets, digests). Stack frames and words stay readable.
 */
export function redact(text: string): string {
  return text.replace(/[A-Za-z0-9_\-+.]{20,}/g, (run) => (/\d/.test(run) && /[A-Za-z]/.test(run) ? "[REDACTED]" : run));
}
