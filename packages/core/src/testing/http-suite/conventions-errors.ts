/**
 * Convention suite: error rendering (spec "Errors", "Authentication"; reference §2.3, §3.1, §3.6;
 * client-compatibility §6.2, §6.3, §6.18, §6.19).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpSuite } from "../http-harness.js";
import { createConventionInstance } from "./conventions-fixture.js";

const BEARER = 'Bearer realm="Protected by OAuth 2.0"';

/** name → [status, exact body, headers that must be present]. */
const EXPECTED: Record<string, [number, string, Record<string, string>?]> = {
  not_found: [404, '{"message":"404 Not Found"}'],
  project_not_found: [404, '{"message":"404 Project Not Found"}'],
  record_not_found: [404, '{"message":"404 Not found"}'],
  validation: [400, '{"message":{"bio":["is too long (maximum is 255 characters)"],"nested":{"name":["can\'t be blank"]}}}'],
  bad_request: [400, '{"message":"400 Bad request"}'],
  bad_request_reason: [400, '{"message":"400 Bad request - reason"}'],
  bad_request_message: [400, '{"message":"\'loud\' is not a valid level"}'],
  forbidden: [403, '{"message":"403 Forbidden"}'],
  forbidden_reason: [403, '{"message":"403 Forbidden - Must be admin to use sudo"}'],
  revoked: [
    401,
    '{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}',
    { "www-authenticate": `${BEARER}, error="invalid_token", error_description="Token was revoked. You have to re-authorize from the user."` },
  ],
  impersonation_disabled: [
    401,
    '{"error":"invalid_token","error_description":"Token is an impersonation token but impersonation was disabled."}',
    { "www-authenticate": `${BEARER}, error="invalid_token", error_description="Token is an impersonation token but impersonation was disabled."` },
  ],
  insufficient_scope: [
    403,
    '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"read_user api read_api"}',
  ],
  conflict: [409, '{"message":"409 Conflict"}'],
  conflict_reason: [409, '{"message":"Already exists"}'],
  unprocessable: [422, '{"message":"422 Unprocessable Entity"}'],
  rate_limited: [429, '{"message":"429 Too Many Requests"}', { "retry-after": "3" }],
  spam: [400, '{"message":{"error":"Your snippet has been recognized as spam and has been discarded."}}'],
  spam_captcha: [
    409,
    '{"needs_captcha_response":true,"spam_log_id":42,"captcha_site_key":"site-key","message":{"error":"Your snippet has been recognized as spam."}}',
  ],
  internal: [500, '{"message":"500 Internal Server Error"}'],
};

/**
 * HTTP suite: every error code renders with the spec's status and body shape, and spam is refused through
 * the SpamChecker port (with and without CAPTCHA).
 */
export const errorsSuite: HttpSuite = (h) => {
  describe("conventions: errors", () => {
    const instance = createConventionInstance();
    beforeAll(async () => {
      await h.serve(instance);
    });

    for (const [name, [status, body, headers]] of Object.entries(EXPECTED)) {
      it(`${name} → ${status} ${body}`, async () => {
        const r = await h.request("GET", `/api/v4/fixture/errors/${name}`);
        expect(r.status).toBe(status);
        expect(r.text).toBe(body);
        expect(r.headers).toMatchObject({
          "content-type": "application/json",
          "x-content-type-options": "nosniff",
          "x-frame-options": "SAMEORIGIN",
          ...headers,
        });
      });
    }

    describe("spam (Body shapes 5) through the SpamChecker port", () => {
      const post = (content: string, headers: Record<string, string> = {}) => h.request("POST", "/api/v4/snippets", { json: { content }, headers });

      it("content the checker accepts is created", async () => {
        const r = await post("hello");
        expect(r.status).toBe(201);
        expect(r.json).toEqual({ content: "hello" });
      });
      it("flagged without a CAPTCHA service → 400 with message.error", async () => {
        const r = await post("buy spam now");
        expect(r.status).toBe(400);
        expect(r.json).toEqual({ message: { error: "Your snippet has been recognized as spam and has been discarded." } });
      });
      it("flagged with a CAPTCHA service → needs_captcha_response, spam_log_id, captcha_site_key, message", async () => {
        const r = await post("captcha me");
        expect(r.status).toBe(409);
        expect(r.json).toEqual({
          needs_captcha_response: true,
          spam_log_id: 42,
          captcha_site_key: "site-key",
          message: { error: "Your snippet has been recognized as spam." },
        });
      });
      it("the retry with X-Service-Captcha-Response and X-Service-Spam-Log-Id reaches the checker and passes", async () => {
        const r = await post("captcha me", { "X-Service-Captcha-Response": "solved", "X-Service-Spam-Log-Id": "42" });
        expect(r.status).toBe(201);
      });
      it("a retry with a wrong CAPTCHA answer is still refused", async () => {
        const r = await post("captcha me", { "X-Service-Captcha-Response": "wrong", "X-Service-Spam-Log-Id": "42" });
        expect(r.status).toBe(409);
      });
    });

    it("insufficient_scope carries no WWW-Authenticate", async () => {
      const r = await h.request("GET", "/api/v4/fixture/errors/insufficient_scope");
      expect(r.headers["www-authenticate"]).toBeUndefined();
    });

    it("no credentials on a protected route → 401 {\"message\":\"401 Unauthorized\"} with a bearer challenge", async () => {
      const r = await h.request("GET", "/api/v4/user");
      expect(r.status).toBe(401);
      expect(r.text).toBe('{"message":"401 Unauthorized"}');
      expect(r.headers["www-authenticate"]).toBe(BEARER);
    });

    it("an expired token → 401 invalid_token with WWW-Authenticate", async () => {
      const r = await h.request("GET", "/api/v4/user", { headers: { "private-token": "fixture-expired" } });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({
        error: "invalid_token",
        error_description: "Token is expired. You can either do re-authorization or token refresh.",
      });
      expect(r.headers["www-authenticate"]).toBe(
        `${BEARER}, error="invalid_token", error_description="Token is expired. You can either do re-authorization or token refresh."`,
      );
    });

    it("authentication runs before parameter validation (401, not 400)", async () => {
      const r = await h.request("POST", "/api/v4/projects", { json: {} });
      expect(r.status).toBe(401);
    });

    it("a thrown error → generic 500, the cause logged redacted, never echoed", async () => {
      const r = await h.request("GET", "/api/v4/fixture/throw");
      expect(r.status).toBe(500);
      expect(r.text).toBe('{"message":"500 Internal Server Error"}');
      expect(r.headers["content-type"]).toBe("application/json");
      const logged = JSON.stringify(instance.logs);
      expect(logged).toContain("http.internal_error");
      expect(logged).toContain("leaked?");
      expect(logged).not.toContain("glpat-0123456789abcdefghijklmn");
    });

    it("If-Unmodified-Since before the last change → 412 {\"message\":\"412 Precondition Failed\"}", async () => {
      const r = await h.request("DELETE", "/api/v4/projects/1", { headers: { "if-unmodified-since": "Wed, 01 May 2024 11:59:59 GMT" } });
      expect(r.status).toBe(412);
      expect(r.text).toBe('{"message":"412 Precondition Failed"}');
    });

    it("If-Unmodified-Since at or after the last change, or unparseable → the DELETE proceeds (204)", async () => {
      for (const value of ["Wed, 01 May 2024 12:00:00 GMT", "Thu, 02 May 2024 00:00:00 GMT", "not a date"]) {
        const r = await h.request("DELETE", "/api/v4/projects/1", { headers: { "if-unmodified-since": value } });
        expect([value, r.status]).toEqual([value, 204]);
      }
    });
  });
};
