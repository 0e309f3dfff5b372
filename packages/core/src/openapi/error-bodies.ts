/**
 * The spec's error bodies ("Errors" body shapes 1–5, Authentication rules 2 and 6) as JSON Schemas
 * and the responses every operation may answer with them (http/render-error.ts renders them).
 */

/** `#/components/schemas/…` of the error bodies. */
export const ERROR_SCHEMAS: Record<string, Record<string, unknown>> = {
  MessageError: {
    type: "object",
    description: 'Most failures: `{"message": "401 Unauthorized"}`, `{"message": "400 (Bad request) \\"title\\" not given"}` (a missing attribute), `{"message": "404 Project Not Found"}`.',
    properties: { message: { type: "string" } },
    required: ["message"],
  },
  ValidationError: {
    type: "object",
    description: "Validation failure: `message` maps each property to its messages; nested entities map to nested objects of the same form.",
    properties: { message: { $ref: "#/components/schemas/ValidationMessages" } },
    required: ["message"],
  },
  ValidationMessages: {
    type: "object",
    additionalProperties: { anyOf: [{ type: "array", items: { type: "string" } }, { $ref: "#/components/schemas/ValidationMessages" }] },
  },
  ErrorString: {
    type: "object",
    description: 'Unknown route (`{"error": "404 Not Found"}`) and parameter type errors (`{"error": "per_page is invalid"}`).',
    properties: { error: { type: "string" } },
    required: ["error"],
  },
  InsufficientScope: {
    type: "object",
    description: "A token without the scope the route needs (or `sudo` without the `sudo` scope).",
    properties: { error: { const: "insufficient_scope" }, error_description: { type: "string" }, scope: { type: "string" } },
    required: ["error", "error_description", "scope"],
  },
  SpamError: {
    type: "object",
    description: "A request classed as spam: without a CAPTCHA service `message.error`; with one, the CAPTCHA fields to repeat the request with `X-Service-Captcha-Response` and `X-Service-Spam-Log-Id`.",
    properties: {
      message: { anyOf: [{ type: "string" }, { type: "object", properties: { error: { type: "string" } }, required: ["error"] }] },
      needs_captcha_response: { type: "boolean" },
      spam_log_id: { type: "integer" },
      captcha_site_key: { type: "string" },
    },
    required: ["message"],
  },
};

const json = (...refs: string[]) => ({
  "application/json": { schema: refs.length === 1 ? { $ref: `#/components/schemas/${refs[0]}` } : { anyOf: refs.map((r) => ({ $ref: `#/components/schemas/${r}` })) } },
});

/** `#/components/responses/…`: the failures every route may answer. */
export const ERROR_RESPONSES: Record<string, Record<string, unknown>> = {
  BadRequest: { description: "A required attribute is missing, or a parameter or attribute failed validation.", content: json("MessageError", "ValidationError", "ErrorString", "SpamError") },
  Unauthorized: { description: "Invalid or missing credentials.", content: json("MessageError") },
  Forbidden: { description: "Not allowed, or the token lacks the scope.", content: json("MessageError", "InsufficientScope") },
  NotFound: { description: "The resource does not exist or is not visible to the caller, or the route is unknown.", content: json("MessageError", "ErrorString") },
  TooManyRequests: { description: "Rate limit exceeded (`Retry-After` says when to retry).", headers: { "Retry-After": { schema: { type: "integer" } } }, content: json("MessageError") },
};
