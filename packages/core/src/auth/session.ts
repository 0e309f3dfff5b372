/**
 * The host's session, read the one way both the REST authentication (step 4) and the OAuth consent
 * page use: the configured cookie (default `_service_session`) or, with `cookieName: null`, the
 * request itself (ports/host.ts `SessionResolver`).
 */
import type { SessionRequest, SessionResolver } from "../ports/host.js";
import type { HttpRequest } from "../http/types.js";
import { cookieFrom, csrfTokenFrom, SESSION_COOKIE } from "./credentials.js";

/** Every cookie of the `Cookie` header: name → value (the first of repeated names wins). */
export function parseCookies(req: HttpRequest): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === "" || Object.hasOwn(cookies, name)) continue;
    const value = cookieFrom(req, name);
    if (value !== undefined) cookies[name] = value;
  }
  return cookies;
}

function sessionRequest(req: HttpRequest): SessionRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  return {
    method: req.method,
    path: req.path,
    headers,
    cookies: parseCookies(req),
    ...(req.remoteAddress === undefined ? {} : { remoteAddress: req.remoteAddress }),
  };
}

/** A signed-in session: its user, and the CSRF check of an unsafe request made with it. */
export interface ResolvedSession {
  userId: number;
  /** Whether the request's `X-CSRF-Token` is valid for this session (false without one or without `verifyCsrfToken`). */
  csrfVerified(): Promise<boolean>;
}

/** The session the request carries, or null (no resolver, no cookie, signed out). */
export async function resolveSession(resolver: SessionResolver | undefined, req: HttpRequest): Promise<ResolvedSession | null> {
  if (resolver === undefined) return null;
  const cookieName = resolver.cookieName === undefined ? SESSION_COOKIE : resolver.cookieName;
  const cookieValue = cookieName === null ? "" : cookieFrom(req, cookieName);
  if (cookieValue === undefined) return null;
  const request = sessionRequest(req);
  const userId = await resolver.resolve(cookieValue, request);
  if (userId === null) return null;
  return {
    userId,
    async csrfVerified() {
      const token = csrfTokenFrom(req);
      return token !== undefined && resolver.verifyCsrfToken !== undefined && (await resolver.verifyCsrfToken(cookieValue, token, request));
    },
  };
}
