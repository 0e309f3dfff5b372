/** SQL OAuthConsentRepository: single use through the primary key of `forgekit_oauth_used_consents` (DESIGN §5). */
import type { OAuthConsentRepository } from "@forgekit/core";
import type { SqlContext } from "./context.js";

export function sqlOAuthConsents(ctx: SqlContext): OAuthConsentRepository {
  const { db, traits: t } = ctx;
  return {
    async markUsed(digest, expiresAt) {
      // The insert is the atomic step: a concurrent insert of the same digest waits for the first
      // to commit and then violates the primary key (guardUnique → null), so exactly one wins.
      const inserted = await t.guardUnique(db, (d) =>
        d.insertInto("forgekit_oauth_used_consents").values({ digest, expires_at: t.toDate(expiresAt) }).execute(),
      );
      return inserted !== null;
    },
    async deleteExpired(cutoff) {
      const result = await db.deleteFrom("forgekit_oauth_used_consents").where("expires_at", "<", t.toDate(cutoff)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
