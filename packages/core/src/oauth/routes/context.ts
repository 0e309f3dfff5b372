/** What the `/oauth` route handlers are built from, and the small helpers they share. */
import { resolveSession } from "../../auth/session.js";
import type { User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import type { HttpRequest, HttpResponse } from "../../http/types.js";
import type { OAuthDeps } from "../deps.js";

/** The instance configuration (session port, accounts store, limits) and the OAuth services' dependencies. */
export interface OAuthRouteContext {
  config: ForgekitConfig;
  deps: OAuthDeps;
}

/** One endpoint's handler: a raw request in, a complete response out (throws only on infrastructure failure). */
export type OAuthEndpoint = (req: HttpRequest) => Promise<HttpResponse>;

/** The user the host's session belongs to (auth/session.ts), or null when signed out or unknown. */
export async function sessionUser(config: Pick<ForgekitConfig, "session" | "store">, req: HttpRequest): Promise<User | null> {
  const session = await resolveSession(config.session, req);
  return session === null ? null : config.store.users.findById(session.userId);
}

/**
 * A redirect that may carry a code or an error: 302, never 307 (RFC 9700 §4.12), not cached, and
 * sending no referrer along.
 */
export function redirectResponse(location: string): HttpResponse {
  return { status: 302, headers: { Location: location, "Cache-Control": "no-store", Pragma: "no-cache", "Referrer-Policy": "no-referrer" } };
}

/** The path of the instance's base URL (e.g. `/forge`), so pages can post to a root-relative address. */
export function basePath(issuer: string): string {
  return new URL(issuer).pathname.replace(/\/+$/, "");
}
