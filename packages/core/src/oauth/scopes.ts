/**
 * OAuth scopes: the names an application may be granted, their plain-word descriptions for the
 * consent page, and parsing and checking of `scope` parameters (RFC 6749 §3.3).
 */
import { err, ok, type Result } from "neverthrow";
import { TOKEN_SCOPES, type TokenScope } from "../auth/scopes.js";
import { oauthErrors, type OAuthError } from "./errors.js";

/** The OpenID Connect scopes besides the API token scopes. */
export const OPENID_SCOPES = ["openid", "profile", "email"] as const;

/** A scope an OAuth application or token can carry: an access-token scope or an OpenID Connect one. */
export type OAuthScope = TokenScope | (typeof OPENID_SCOPES)[number];

/** Every scope an OAuth application may be registered with. */
export const OAUTH_SCOPES: readonly OAuthScope[] = [...TOKEN_SCOPES, ...OPENID_SCOPES];

/** The scope granted when a request names none (reference `DEFAULT_SCOPES`), capped by the application. */
export const DEFAULT_OAUTH_SCOPES: readonly OAuthScope[] = ["api"];

/** What each scope lets the application do, in plain words for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  api: "Read and change everything you can reach through the API: groups, projects, repositories and settings.",
  read_api: "Read everything you can reach through the API, without changing anything.",
  read_user: "Read your profile: username, name, public email and avatar.",
  create_runner: "Create CI runners in your name.",
  manage_runner: "Manage the CI runners you can administer.",
  k8s_proxy: "Talk to Kubernetes clusters through the agent for Kubernetes in your name.",
  self_rotate: "Replace this token with a new one.",
  read_repository: "Read (pull and clone) the repositories you can reach.",
  write_repository: "Read and write (push to) the repositories you can reach.",
  read_registry: "Pull images from the container registries you can reach.",
  write_registry: "Push images to the container registries you can reach.",
  sudo: "Act as any other user (administrators only).",
  admin_mode: "Use administrator actions while admin mode is on (administrators only).",
  ai_features: "Use AI features in your name.",
  openid: "Confirm who you are (sign you in to the application).",
  profile: "Read your name, username, profile link, avatar and group memberships.",
  email: "Read your primary email address.",
};

/** Whether `value` is a scope this provider knows. */
export function isOAuthScope(value: string): value is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(value);
}

/** The consent-page text for a scope (unknown names are shown as themselves). */
export function describeScope(scope: string): string {
  return isOAuthScope(scope) ? SCOPE_DESCRIPTIONS[scope] : scope;
}

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Splits a `scope` parameter on spaces (a URL carries them as `+`), dropping empty pieces and
 * duplicates while keeping order. `null` when absent or blank; `err` when a piece holds a
 * character outside the scope-token syntax (tabs, newlines, quotes, backslashes, non-ASCII).
 */
export function parseScopeParam(value: string | undefined): Result<string[] | null, "malformed"> {
  if (value === undefined) return ok(null);
  const pieces = value.split(" ").filter((p) => p !== "");
  if (pieces.length === 0) return ok(null);
  if (!pieces.every((p) => SCOPE_TOKEN.test(p))) return err("malformed");
  return ok([...new Set(pieces)]);
}

/** Renders scopes as the space-separated string of token responses (client-compatibility 7). */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.join(" ");
}

/**
 * The scopes to grant for a request: the requested ones when every one is allowed, or — when the
 * request names none — the defaults that `allowed` contains. Unknown, malformed, disallowed or
 * (after defaulting) empty scope sets give `invalid_scope`.
 */
export function resolveScopes(
  requested: string | undefined,
  allowed: readonly string[],
  defaults: readonly string[] = DEFAULT_OAUTH_SCOPES,
): Result<string[], OAuthError> {
  const parsed = parseScopeParam(requested);
  if (parsed.isErr()) return err(oauthErrors.invalidScope());
  const scopes = parsed.value ?? defaults.filter((s) => allowed.includes(s));
  if (scopes.length === 0) return err(oauthErrors.invalidScope());
  if (!scopes.every((s) => isOAuthScope(s) && allowed.includes(s))) return err(oauthErrors.invalidScope());
  return ok(scopes);
}

/**
 * Checks the scopes of an application being registered: at least one, all known, no duplicates
 * kept. Returns the unknown names on failure.
 */
export function validateApplicationScopes(scopes: readonly string[]): Result<string[], string[]> {
  const unique = [...new Set(scopes)];
  const unknown = unique.filter((s) => !isOAuthScope(s));
  if (unknown.length > 0) return err(unknown);
  if (unique.length === 0) return err([]);
  return ok(unique);
}
