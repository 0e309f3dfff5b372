/**
 * The seam between REST authentication and the OAuth provider: authentication asks this port
 * whether a raw bearer value is an OAuth access token. forgekit's OAuth capability supplies the real
 * implementation; until one is configured no raw value is an OAuth token.
 */

/** An OAuth access token as authentication needs it. */
export interface OAuthAccessTokenRecord {
  /** Token row id (for audit). */
  id: number;
  userId: number;
  scopes: string[];
  /** Null: no expiry. */
  expiresAt: Date | null;
  revokedAt: Date | null;
  applicationId: number | null;
}

/** Finds OAuth access tokens by their raw value (implementations compare digests, never plaintext). */
export interface OAuthTokenLookup {
  find(rawToken: string): Promise<OAuthAccessTokenRecord | null>;
}

/** The default: no OAuth tokens exist. */
export const noOAuthTokens: OAuthTokenLookup = {
  find: () => Promise.resolve(null),
};
