/** The body of `GET /oauth/token/info` (spec "Token info", with its deprecated aliases). */
import type { OAuthToken } from "../ports/oauth-store.js";
import { unixSeconds } from "./token-response.js";

export interface TokenInfoBody {
  resource_owner_id: number;
  scope: string[];
  /** Remaining seconds; null when the token never expires. */
  expires_in: number | null;
  application: { uid: string | null };
  created_at: number;
  /** Deprecated alias of `scope`. */
  scopes: string[];
  /** Deprecated alias of `expires_in`. */
  expires_in_seconds: number | null;
}

/** Seconds until the access token expires, rounded, never negative; null for no expiry. */
export function remainingSeconds(token: Pick<OAuthToken, "expiresAt">, now: Date): number | null {
  if (token.expiresAt === null) return null;
  return Math.max(0, Math.round((token.expiresAt.getTime() - now.getTime()) / 1000));
}

/** Builds the token-info body; `applicationUid` is null for tokens issued without a client. */
export function buildTokenInfo(token: OAuthToken, applicationUid: string | null, now: Date): TokenInfoBody {
  const expiresIn = remainingSeconds(token, now);
  return {
    resource_owner_id: token.userId,
    scope: [...token.scopes],
    expires_in: expiresIn,
    application: { uid: applicationUid },
    created_at: unixSeconds(token.createdAt),
    scopes: [...token.scopes],
    expires_in_seconds: expiresIn,
  };
}
