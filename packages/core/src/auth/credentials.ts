/**
 * Where credentials are read from a request (reference §2.2, spec "Authentication"). Each reader
 * returns the raw value or undefined; blank values count as absent.
 */
import type { HttpRequest, Params } from "../http/types.js";

/** The cookie the host's sign-in sets (spec: `_service_session`). */
export const SESSION_COOKIE = "_service_session";

function param(params: Params, name: string): string | undefined {
  const value = params[name];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function header(req: HttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

/** `Authorization: Bearer <token>` (scheme case-insensitive). */
export function bearerToken(req: HttpRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return match?.[1];
}

/** OAuth sources, in order: `access_token` parameter, then `Authorization: Bearer`. */
export function oauthTokenFrom(req: HttpRequest, params: Params): string | undefined {
  return param(params, "access_token") ?? bearerToken(req);
}

/** Personal/project/group token sources: `private_token` parameter → `PRIVATE-TOKEN` header → the OAuth sources. */
export function privateTokenFrom(req: HttpRequest, params: Params): string | undefined {
  return param(params, "private_token") ?? header(req, "private-token") ?? oauthTokenFrom(req, params);
}

/** Job token sources (routes with `auth.jobToken` only): `job_token` parameter → `JOB-TOKEN` header. */
export function jobTokenFrom(req: HttpRequest, params: Params): string | undefined {
  return param(params, "job_token") ?? header(req, "job-token");
}

/** The sudo target: `sudo` parameter, else `Sudo` header. */
export function sudoFrom(req: HttpRequest, params: Params): string | undefined {
  return param(params, "sudo") ?? header(req, "sudo");
}

/** The `X-CSRF-Token` header. */
export function csrfTokenFrom(req: HttpRequest): string | undefined {
  return header(req, "x-csrf-token");
}

/** The value of a cookie in the `Cookie` header (percent-decoded when well formed). */
export function cookieFrom(req: HttpRequest, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const raw = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    if (raw === "") return undefined;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
