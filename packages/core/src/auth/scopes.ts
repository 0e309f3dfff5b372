/** Token scopes (reference §2.4) and the per-route scope rules. */
import type { Route } from "../http/types.js";

/** Scopes a personal, impersonation, project or group access token may carry. */
export const TOKEN_SCOPES = [
  "api",
  "read_api",
  "read_user",
  "create_runner",
  "manage_runner",
  "k8s_proxy",
  "self_rotate",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "sudo",
  "admin_mode",
  "ai_features",
] as const;
/** A scope an access token can carry (`api`, `read_api`, `read_repository`, …). */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Whether `value` is a token scope. */
export function isTokenScope(value: string): value is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(value);
}

/** Read methods: `read_api` and read-only extra scopes apply only to these. */
export function isReadMethod(method: string): boolean {
  const m = method.toUpperCase();
  return m === "GET" || m === "HEAD";
}

/**
 * The scopes a route accepts for this method: its extra scopes (read-only ones only on GET/HEAD),
 * `api` always, `read_api` on GET/HEAD (reference §2.4 `API::API`).
 */
export function acceptedScopes(route: Pick<Route, "auth">, method: string): string[] {
  const read = isReadMethod(method);
  const extra = (route.auth.extraScopes ?? []).filter((s) => read || !s.readOnly).map((s) => s.scope);
  return [...extra, "api", ...(read ? ["read_api"] : [])];
}

/**
 * The `scope` value of an insufficient_scope answer: every scope registered for the route, whatever
 * its method condition, then `api read_api` (reference §2.3, e.g. `"read_user api read_api"`).
 */
export function registeredScopes(route: Pick<Route, "auth">): string[] {
  const extra = (route.auth.extraScopes ?? []).map((s) => s.scope).filter((s) => s !== "api" && s !== "read_api");
  return [...new Set(extra), "api", "read_api"];
}

/** Whether a credential's scopes satisfy the route for this method. */
export function scopesSufficient(tokenScopes: readonly string[], route: Pick<Route, "auth">, method: string): boolean {
  return acceptedScopes(route, method).some((s) => tokenScopes.includes(s));
}
