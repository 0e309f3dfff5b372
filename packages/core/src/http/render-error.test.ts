import { describe, expect, it } from "vitest";
import { errors, type ErrorCode, type ForgekitError } from "../errors.js";
import type { LogLevel } from "../ports/runtime.js";
import { storeUnavailable } from "../ports/store-errors.js";
import { redact, renderError } from "./render-error.js";

/** One example per code; `satisfies` makes a new code without an example a compile error here too. */
const EXAMPLES = {
  not_found: [errors.notFound("Group"), 404, { message: "404 Group Not Found" }],
  record_not_found: [errors.recordNotFound(), 404, { message: "404 Not found" }],
  route_not_found: [errors.routeNotFound(), 404, { error: "404 Not Found" }],
  method_not_allowed: [errors.methodNotAllowed(["GET", "HEAD"]), 405, { message: "405 Method Not Allowed" }],
  not_allowed_error: [errors.notAllowedError("nope"), 405, { error: "nope" }],
  missing_param: [errors.missingParam("title"), 400, { message: '400 (Bad request) "title" not given' }],
  invalid_param: [errors.invalidParam("id"), 400, { error: "id is invalid" }],
  validation: [errors.validation({ a: ["b"] }), 400, { message: { a: ["b"] } }],
  bad_request: [errors.badRequest("x"), 400, { message: "400 Bad request - x" }],
  bad_request_message: [errors.badRequestMessage("'x' is not a valid level"), 400, { message: "'x' is not a valid level" }],
  unauthorized: [errors.unauthorized(), 401, { message: "401 Unauthorized" }],
  invalid_token: [
    errors.invalidToken("expired"),
    401,
    { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." },
  ],
  forbidden: [errors.forbidden(), 403, { message: "403 Forbidden" }],
  insufficient_scope: [
    errors.insufficientScope(["sudo"]),
    403,
    { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token.", scope: "sudo" },
  ],
  conflict: [errors.conflict(), 409, { message: "409 Conflict" }],
  precondition_failed: [errors.preconditionFailed(), 412, { message: "412 Precondition Failed" }],
  payload_too_large: [errors.payloadTooLarge(), 413, { message: "413 Request Entity Too Large" }],
  uri_too_long: [errors.uriTooLong(), 414, { message: "414 Request-URI Too Large" }],
  unsupported_media_type: [errors.unsupportedMediaType(), 415, { message: "415 Unsupported Media Type" }],
  unprocessable: [errors.unprocessable("Bad thing"), 422, { message: "Bad thing" }],
  rate_limited: [errors.rateLimited(60), 429, { message: "429 Too Many Requests" }],
  spam: [errors.spam("Spam!"), 400, { message: { error: "Spam!" } }],
  unavailable: [errors.internal(storeUnavailable("connection refused")), 503, { message: "503 Service Unavailable" }],
  internal: [errors.internal(), 500, { message: "500 Internal Server Error" }],
} satisfies Record<ErrorCode, [ForgekitError, number, unknown]>;

describe("renderError", () => {
  for (const [code, [error, status, body]] of Object.entries(EXAMPLES)) {
    it(`${code} → ${status} with exactly application/json and the security headers`, () => {
      const r = renderError(error);
      expect(r.status).toBe(status);
      expect(JSON.parse(r.body as string)).toEqual(body);
      expect(r.headers).toMatchObject({ "content-type": "application/json", "x-content-type-options": "nosniff", "x-frame-options": "SAMEORIGIN" });
    });
  }

  it("method_not_allowed carries Allow", () => {
    expect(renderError(errors.methodNotAllowed(["GET", "HEAD", "OPTIONS"])).headers["allow"]).toBe("GET, HEAD, OPTIONS");
  });

  it("429 Retry-After is integer seconds, at least 1", () => {
    expect(renderError({ code: "rate_limited", retryAfterSeconds: 0.2 }).headers["retry-after"]).toBe("1");
    expect(renderError({ code: "rate_limited", retryAfterSeconds: 59.1 }).headers["retry-after"]).toBe("60");
  });

  it("a store-unavailable cause anywhere in the chain → 503 with Retry-After, logged as a warning", () => {
    const lines: [LogLevel, string][] = [];
    const wrapped = new Error("query failed", { cause: storeUnavailable("terminated", { retryAfterSeconds: 2.5 }) });
    const r = renderError(errors.internal(wrapped), { logger: { log: (level, event) => lines.push([level, event]) } });
    expect(r.status).toBe(503);
    expect(r.headers["retry-after"]).toBe("3");
    expect(lines).toEqual([["warn", "store.unavailable"]]);
    expect(errors.internal(new Error("plain")).code).toBe("internal");
  });

  it("spam with captcha → 409 with needs_captcha_response, spam_log_id, captcha_site_key, message.error", () => {
    const r = renderError(errors.spam("Spam!", { spamLogId: 7, siteKey: "k" }));
    expect(r.status).toBe(409);
    expect(r.body).toBe('{"needs_captcha_response":true,"spam_log_id":7,"captcha_site_key":"k","message":{"error":"Spam!"}}');
  });

  it("internal: the cause is logged redacted through the Logger port, never echoed", () => {
    const lines: [LogLevel, string, unknown][] = [];
    const r = renderError(errors.internal(new Error("boom token=0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d")), {
      logger: { log: (level, event, fields) => lines.push([level, event, fields]) },
    });
    expect(r.body).toBe('{"message":"500 Internal Server Error"}');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[0]).toBe("error");
    expect(lines[0]?.[1]).toBe("http.internal_error");
    expect(JSON.stringify(lines)).toContain("boom token=[REDACTED]");
    expect(JSON.stringify(lines)).not.toContain("0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d");
  });

  it("internal: a non-Error cause and a throwing logger do not break rendering", () => {
    const r = renderError(errors.internal({ secret: "glpat-abcdefghij0123456789" }), {
      logger: {
        log: () => {
          throw new Error("logger down");
        },
      },
    });
    expect(r.status).toBe(500);
  });

  it("redact masks long token-like runs with digits and letters, keeps words and paths", () => {
    expect(redact("glpat-abcdefghij0123456789 at /src/http/render-error.test.ts:12")).toBe("[REDACTED] at /src/http/render-error.test.ts:12");
    expect(redact("averyveryverylongwordwithoutdigits")).toBe("averyveryverylongwordwithoutdigits");
  });
});
