/** SQL OAuthAuthorizationCodeRepository: single use through one guarded UPDATE (DESIGN §5). */
import type { OAuthAuthorizationCodeRepository } from "@forgekit/core";
import { runCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import { toCode } from "./oauth-rows.js";

export function sqlOAuthCodes(ctx: SqlContext): OAuthAuthorizationCodeRepository {
  const { db, traits: t } = ctx;
  const byDigest = async (digest: string) => {
    const [row] = await runCompiled(ctx, "oauthCodes.findByDigest", [digest], (arg) => db.selectFrom("forgekit_oauth_codes").selectAll().where("digest", "=", arg<string>(0)));
    return row === undefined ? null : toCode(row, t);
  };
  return {
    async create(input, now) {
      const id = await t.insert(db, "forgekit_oauth_codes", {
        digest: input.digest,
        family_id: input.familyId,
        application_id: input.applicationId,
        user_id: input.userId,
        redirect_uri: input.redirectUri,
        scopes: JSON.stringify(input.scopes),
        code_challenge: input.codeChallenge,
        nonce: input.nonce,
        created_at: t.toDate(now),
        expires_at: t.toDate(input.expiresAt),
        consumed_at: null,
      });
      return { ...input, scopes: [...input.scopes], expiresAt: new Date(input.expiresAt), id, createdAt: new Date(now), consumedAt: null };
    },
    findByDigest: byDigest,
    async consume(digest, now) {
      // The database serialises writers of one row and re-checks `consumed_at IS NULL` after a
      // wait (PostgreSQL READ COMMITTED, InnoDB's current read, SQLite's single writer): exactly
      // one UPDATE affects the row. `consumed_at` never changes again, so reading it back after
      // the winning UPDATE (no RETURNING on MySQL) sees the row this call consumed.
      const result = await db
        .updateTable("forgekit_oauth_codes")
        .set({ consumed_at: t.toDate(now) })
        .where("digest", "=", digest)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? byDigest(digest) : null;
    },
    async deleteExpired(cutoff) {
      const result = await db.deleteFrom("forgekit_oauth_codes").where("expires_at", "<", t.toDate(cutoff)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
