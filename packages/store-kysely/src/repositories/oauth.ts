/** The OAuth repositories of the SQL store (`store.oauth`). */
import type { OAuthRepositories } from "@forgekit/core";
import type { SqlContext } from "./context.js";
import { sqlOAuthApplications, sqlOAuthKeys } from "./oauth-applications.js";
import { sqlOAuthCodes } from "./oauth-codes.js";
import { sqlOAuthConsents } from "./oauth-consents.js";
import { sqlOAuthTokens } from "./oauth-tokens.js";

export function sqlOAuth(ctx: SqlContext): OAuthRepositories {
  return { oauthApplications: sqlOAuthApplications(ctx), oauthCodes: sqlOAuthCodes(ctx), oauthTokens: sqlOAuthTokens(ctx), oauthKeys: sqlOAuthKeys(ctx), oauthConsents: sqlOAuthConsents(ctx) };
}
