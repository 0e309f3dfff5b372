/**
 * Response builders shared by the pipeline, error rendering and the OAuth endpoints, so every
 * response carries the same headers (DESIGN §3; reference §3.1 "All API responses get
 * X-Frame-Options / X-Content-Type-Options").
 */
import type { HttpResponse } from "./types.js";

/** Exactly this, no `charset` parameter: python-gitlab compares it verbatim (client-compatibility §6.2). */
export const JSON_CONTENT_TYPE = "application/json";

/** Headers every forgekit response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
});

/** A JSON response: `body` serialised with `JSON.stringify`, `Content-Type: application/json`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    status,
    headers: { ...SECURITY_HEADERS, ...lowerCaseKeys(headers), "content-type": JSON_CONTENT_TYPE },
    body: JSON.stringify(body),
  };
}

/**
 * A response without a body. It never carries a JSON content type: clients try to parse a JSON
 * content type and fail on an empty body (client-compatibility §6.3).
 */
export function emptyResponse(status: number, headers: Record<string, string> = {}): HttpResponse {
  const out: Record<string, string> = { ...SECURITY_HEADERS, ...lowerCaseKeys(headers) };
  delete out["content-type"];
  return { status, headers: out };
}

/** Copies `headers` with lower-case names (HttpResponse headers are lower-case throughout). */
export function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
