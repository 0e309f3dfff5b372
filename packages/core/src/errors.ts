/**
 * The closed union of everything a caller can do wrong (DESIGN §4). Services return these inside
 * neverthrow Results; nothing a caller did wrong is thrown. `renderError` (http/render-error.ts)
 * maps every code to the spec's status and body through one exhaustive table.
 */

/** A map of property → messages; nested entities map to nested objects of the same form (spec "Errors" 2). */
export interface ValidationMessages {
  [property: string]: string[] | ValidationMessages;
}

import { unavailableIn } from "./domain/store-errors.js";

/**
 * Everything a caller can do wrong, as a closed union on `code`: services return these inside neverthrow
 * Results, and the HTTP layer renders each code with the spec's status and body shape.
 */
export type ForgekitError =
  /** 404 `{"message":"404 <thing> Not Found"}`; `thing` undefined → `404 Not Found`. */
  | { code: "not_found"; thing?: string }
  /** 404 `{"message":"404 Not found"}` (reference: a record looked up by id inside a known parent). */
  | { code: "record_not_found" }
  /** 404 `{"error":"404 Not Found"}` — no route matches (spec "Errors" 3). */
  | { code: "route_not_found" }
  /** 405 `{"message":"405 Method Not Allowed"}` with `Allow`. */
  | { code: "method_not_allowed"; allow: string[] }
  /** 405 `{"error": message}` — e.g. keyset pagination not available for this request. */
  | { code: "not_allowed_error"; message: string }
  /** 400 `{"message":"400 (Bad request) \"<attribute>\" not given"}` (spec "Errors" 1). */
  | { code: "missing_param"; param: string }
  /** 400 `{"error":"<param> <reason>"}` — parameter type/value errors in the reference's (Grape) wording. */
  | { code: "invalid_param"; param: string; reason?: string }
  /** 400 `{"message": {property: [messages]}}` (spec "Errors" 2). */
  | { code: "validation"; messages: ValidationMessages }
  /** 400 `{"message":"400 Bad request - <reason>"}` (or `"400 Bad request"`). */
  | { code: "bad_request"; reason?: string }
  /** 400 `{"message": message}` — an endpoint-specific text, e.g. `"'x' is not a valid level"` (reference). */
  | { code: "bad_request_message"; message: string }
  /** 401 `{"message":"401 Unauthorized"}` (spec Authentication rule 2). */
  | { code: "unauthorized" }
  /** 401 `{"error":"invalid_token","error_description": …}` — expired / revoked / impersonation disabled. */
  | { code: "invalid_token"; reason: "expired" | "revoked" | "impersonation_disabled" }
  /** 403 `{"message":"403 Forbidden"}` or `"403 Forbidden - <reason>"`. */
  | { code: "forbidden"; reason?: string }
  /** 403 `{"error":"insufficient_scope","error_description":…,"scope":"<scopes>"}` (spec "Errors" 4). */
  | { code: "insufficient_scope"; scopes: string[] }
  /** 409 `{"message":"409 Conflict"}` or `{"message": reason}`. */
  | { code: "conflict"; reason?: string }
  /** 412 `{"message":"412 Precondition Failed"}`. */
  | { code: "precondition_failed" }
  /** 413 `{"message":"413 Request Entity Too Large"}`. */
  | { code: "payload_too_large" }
  /** 414 `{"message":"414 Request-URI Too Large"}`. */
  | { code: "uri_too_long" }
  /** 415 `{"message":"415 Unsupported Media Type"}`. */
  | { code: "unsupported_media_type" }
  /** 422 `{"message":"422 Unprocessable Entity"}` or `{"message": reason}`. */
  | { code: "unprocessable"; reason?: string }
  /** 429 `{"message":"429 Too Many Requests"}` with integer `Retry-After`. */
  | { code: "rate_limited"; retryAfterSeconds: number }
  /** Spam (spec "Errors" 5): without CAPTCHA 400 `{"message":{"error":…}}`; with CAPTCHA 409 + captcha fields. */
  | { code: "spam"; message: string; captcha?: { spamLogId: number; siteKey: string } }
  /** 503 `{"message":"503 Service Unavailable"}` with integer `Retry-After`: the store is unreachable or timed out. */
  | { code: "unavailable"; retryAfterSeconds: number; cause?: unknown }
  /** 500 `{"message":"500 Internal Server Error"}`; `cause` is logged (redacted), never echoed. */
  | { code: "internal"; cause?: unknown };

/** The `code` of a {@link ForgekitError} (`not_found`, `validation`, `unavailable`, …). */
export type ErrorCode = ForgekitError["code"];

/** Constructors: the only way errors are built (DESIGN §4). */
export const errors = {
  notFound: (thing?: string): ForgekitError => (thing === undefined ? { code: "not_found" } : { code: "not_found", thing }),
  recordNotFound: (): ForgekitError => ({ code: "record_not_found" }),
  routeNotFound: (): ForgekitError => ({ code: "route_not_found" }),
  methodNotAllowed: (allow: string[]): ForgekitError => ({ code: "method_not_allowed", allow }),
  notAllowedError: (message: string): ForgekitError => ({ code: "not_allowed_error", message }),
  missingParam: (param: string): ForgekitError => ({ code: "missing_param", param }),
  invalidParam: (param: string, reason?: string): ForgekitError =>
    reason === undefined ? { code: "invalid_param", param } : { code: "invalid_param", param, reason },
  validation: (messages: ValidationMessages): ForgekitError => ({ code: "validation", messages }),
  badRequest: (reason?: string): ForgekitError => (reason === undefined ? { code: "bad_request" } : { code: "bad_request", reason }),
  badRequestMessage: (message: string): ForgekitError => ({ code: "bad_request_message", message }),
  unauthorized: (): ForgekitError => ({ code: "unauthorized" }),
  invalidToken: (reason: "expired" | "revoked" | "impersonation_disabled"): ForgekitError => ({ code: "invalid_token", reason }),
  forbidden: (reason?: string): ForgekitError => (reason === undefined ? { code: "forbidden" } : { code: "forbidden", reason }),
  insufficientScope: (scopes: string[]): ForgekitError => ({ code: "insufficient_scope", scopes }),
  conflict: (reason?: string): ForgekitError => (reason === undefined ? { code: "conflict" } : { code: "conflict", reason }),
  preconditionFailed: (): ForgekitError => ({ code: "precondition_failed" }),
  payloadTooLarge: (): ForgekitError => ({ code: "payload_too_large" }),
  uriTooLong: (): ForgekitError => ({ code: "uri_too_long" }),
  unsupportedMediaType: (): ForgekitError => ({ code: "unsupported_media_type" }),
  unprocessable: (reason?: string): ForgekitError => (reason === undefined ? { code: "unprocessable" } : { code: "unprocessable", reason }),
  rateLimited: (retryAfterSeconds: number): ForgekitError => ({ code: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) }),
  spam: (message: string, captcha?: { spamLogId: number; siteKey: string }): ForgekitError =>
    captcha === undefined ? { code: "spam", message } : { code: "spam", message, captcha },
  /**
   * An unexpected failure. A cause that says the store is unavailable (ports/store-errors.ts) becomes
   * `unavailable` (503 + Retry-After) instead, so every service that wraps a store call gets it right.
   */
  internal: (cause?: unknown): ForgekitError => {
    const down = unavailableIn(cause);
    return down === undefined ? { code: "internal", cause } : { code: "unavailable", retryAfterSeconds: down.retryAfterSeconds, cause };
  },
} as const;
