/**
 * Reading OAuth parameters: form bodies (RFC 6749 §3.2: `application/x-www-form-urlencoded`)
 * and queries as `URLSearchParams`, one value per parameter (sent twice → `invalid_request`,
 * RFC 6749 §3.1; an empty value counts as absent).
 */
import { err, ok, type Result } from "neverthrow";
import type { HttpRequest } from "../http/types.js";
import { oauthErrors, type OAuthError } from "./errors.js";

/**
 * The longest value each named parameter may have, in characters. Nothing legitimate comes close
 * (generated ids, secrets and codes are under 64; usernames and emails 255; registered redirect
 * URIs 2000), while an unbounded value would be hashed, looked up, throttled and logged at the
 * size an attacker chose. Parameters not listed (e.g. `state`, `token`) are bounded only by the
 * body and URI limits.
 */
export const OAUTH_PARAM_MAX_LENGTHS: Readonly<Record<string, number>> = Object.freeze({
  grant_type: 255,
  client_id: 255,
  client_secret: 255,
  username: 255,
  password: 1024,
  scope: 1024,
  redirect_uri: 2000,
  code: 255,
  refresh_token: 255,
  code_verifier: 255,
});

/** `invalid_request` (RFC 6749 §5.2, 400) naming the parameter and its limit. */
export function paramTooLong(name: string, max: number): OAuthError {
  return oauthErrors.invalidRequest(`Parameter too long: ${name} (at most ${max} characters).`);
}

/**
 * The single value of `name`, `undefined` when absent or empty, `invalid_request` when repeated
 * or longer than {@link OAUTH_PARAM_MAX_LENGTHS} allows.
 */
export function formParam(form: URLSearchParams, name: string): Result<string | undefined, OAuthError> {
  const values = form.getAll(name);
  if (values.length > 1) return err(oauthErrors.repeatedParam(name));
  const value = values[0];
  if (value === undefined || value === "") return ok(undefined);
  const max = OAUTH_PARAM_MAX_LENGTHS[name];
  if (max !== undefined && value.length > max) return err(paramTooLong(name, max));
  return ok(value);
}

/** Reads several parameters at once (see `formParam`). */
export function formParams<K extends string>(form: URLSearchParams, names: readonly K[]): Result<Partial<Record<K, string>>, OAuthError> {
  const out: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = formParam(form, name);
    if (value.isErr()) return err(value.error);
    if (value.value !== undefined) out[name] = value.value;
  }
  return ok(out);
}

/** Form-url-decoding of one component (`+` is a space; invalid percent escapes fail). */
export function formUrlDecode(value: string): Result<string, "malformed"> {
  try {
    return ok(decodeURIComponent(value.replace(/\+/g, " ")));
  } catch {
    return err("malformed");
  }
}

function fromParsed(parsed: unknown): URLSearchParams | null {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof item === "string" || typeof item === "number" || typeof item === "boolean") form.append(key, String(item));
      else if (item !== undefined && item !== null) return null;
    }
  }
  return form;
}

/**
 * The form body of a POST to an OAuth endpoint. The content type must be
 * `application/x-www-form-urlencoded` (checklist B1); a body the host framework already parsed
 * (`parsedBody`) is accepted as flat string fields.
 */
export function readOAuthForm(request: Pick<HttpRequest, "headers" | "body" | "parsedBody">): Result<URLSearchParams, OAuthError> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return err(oauthErrors.invalidRequest("The request body must be application/x-www-form-urlencoded."));
  }
  if (request.body !== undefined) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(request.body);
    } catch {
      return err(oauthErrors.invalidRequest());
    }
    return ok(new URLSearchParams(text));
  }
  if (request.parsedBody === undefined) return ok(new URLSearchParams());
  const form = fromParsed(request.parsedBody);
  return form === null ? err(oauthErrors.invalidRequest()) : ok(form);
}
