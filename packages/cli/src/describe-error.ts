/** Human-readable one-line descriptions of ForgekitErrors for the terminal. */
import type { ForgekitError, ValidationMessages } from "@forgekit/core";

function flatten(messages: ValidationMessages, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([field, value]) =>
    Array.isArray(value) ? value.map((m) => `${prefix}${field} ${m}`) : flatten(value, `${prefix}${field}.`),
  );
}

/** Describes `error` as the CLI prints it after `error: `. */
export function describeError(error: ForgekitError): string {
  switch (error.code) {
    case "not_found":
      return error.thing === undefined ? "not found" : `${error.thing} not found`;
    case "record_not_found":
    case "route_not_found":
      return "not found";
    case "method_not_allowed":
      return `method not allowed (allowed: ${error.allow.join(", ")})`;
    case "not_allowed_error":
    case "bad_request_message":
      return error.message;
    case "missing_param":
      return `${error.param} is required`;
    case "invalid_param":
      return `${error.param} ${error.reason ?? "is invalid"}`;
    case "validation":
      return flatten(error.messages).join("; ");
    case "bad_request":
      return error.reason ?? "bad request";
    case "unauthorized":
      return "unauthorized";
    case "invalid_token":
      return `token ${error.reason === "impersonation_disabled" ? "unusable: impersonation is disabled" : error.reason}`;
    case "forbidden":
      return error.reason === undefined ? "forbidden" : `forbidden: ${error.reason}`;
    case "insufficient_scope":
      return `insufficient scope (needs ${error.scopes.join(" ")})`;
    case "conflict":
      return error.reason ?? "conflict";
    case "precondition_failed":
      return "precondition failed";
    case "payload_too_large":
      return "payload too large";
    case "uri_too_long":
      return "URI too long";
    case "unsupported_media_type":
      return "unsupported media type";
    case "unprocessable":
      return error.reason ?? "unprocessable";
    case "rate_limited":
      return `rate limited; retry after ${error.retryAfterSeconds} s`;
    case "spam":
      return `rejected as spam: ${error.message}`;
    case "unavailable":
      return `database unavailable (${error.cause instanceof Error ? error.cause.message : "no connection"}); retry after ${error.retryAfterSeconds} s`;
    case "internal":
      return `internal error: ${error.cause instanceof Error ? error.cause.message : "unexpected failure"}`;
  }
}

/** The JSON form of an error for `--json` output (the cause of an internal error reduced to its message). */
export function errorJson(error: ForgekitError): Record<string, unknown> {
  const { code, ...rest } = error;
  if (error.code === "internal" || error.code === "unavailable") return { code, message: describeError(error) };
  return { code, message: describeError(error), ...rest };
}
