/** JSON shapes of access tokens (reference `PersonalAccessToken`, `ImpersonationToken`, `…WithToken`). */
import { tokenActive } from "../tokens.js";
import type { AccessToken } from "../types.js";
import { iso, isoDate } from "./time.js";

/** A personal or impersonation token, never its secret. `expires_at` is the date (`YYYY-MM-DD`). */
export function accessTokenEntity(token: AccessToken, now: Date) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: iso(token.createdAt),
    description: null,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: iso(token.lastUsedAt),
    active: tokenActive(token, now),
    expires_at: isoDate(token.expiresAt),
  };
}

/** An impersonation token. */
export function impersonationTokenEntity(token: AccessToken, now: Date) {
  return { ...accessTokenEntity(token, now), last_used_ips: [], impersonation: token.kind === "impersonation" };
}

/** An impersonation token with its plaintext (only in the create response). */
export function impersonationTokenWithToken(token: AccessToken, plaintext: string, now: Date) {
  return { ...impersonationTokenEntity(token, now), token: plaintext };
}

/** A personal access token with its (empty: forgekit does not record them) last-used IPs, as the list shows it. */
export function personalAccessTokenEntity(token: AccessToken, now: Date) {
  return { ...accessTokenEntity(token, now), last_used_ips: [] };
}

/** A personal access token with its plaintext (create and rotate responses only). */
export function personalAccessTokenWithToken(token: AccessToken, plaintext: string, now: Date) {
  return { ...accessTokenEntity(token, now), token: plaintext };
}

/** A project or group access token: the token plus its bot's access level in the resource. */
export function resourceAccessTokenEntity(token: AccessToken, accessLevel: number, now: Date) {
  return {
    ...accessTokenEntity(token, now),
    access_level: accessLevel,
    resource_type: token.kind === "group" ? "group" : "project",
    resource_id: token.resourceId,
  };
}

/** A project or group access token with its plaintext (create and rotate responses only). */
export function resourceAccessTokenWithToken(token: AccessToken, accessLevel: number, plaintext: string, now: Date) {
  return { ...resourceAccessTokenEntity(token, accessLevel, now), token: plaintext };
}
