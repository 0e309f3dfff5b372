/** SQL OAuthTokenRepository: rotation as a compare-and-swap inside one transaction (DESIGN §5). */
import type { NewOAuthToken, OAuthToken, OAuthTokenRepository } from "@forgekit/core";
import { executeCompiled, runCompiled } from "../sql/compiled.js";
import { atomic, type SqlContext } from "./context.js";
import { toOAuthToken } from "./oauth-rows.js";

function tokenRow(ctx: SqlContext, input: NewOAuthToken, now: Date, previousId: number | null) {
  const t = ctx.traits;
  const expiresAt = input.expiresIn === null ? null : new Date(now.getTime() + input.expiresIn * 1000);
  return {
    values: {
      family_id: input.familyId,
      application_id: input.applicationId,
      user_id: input.userId,
      access_digest: input.accessDigest,
      refresh_digest: input.refreshDigest,
      scopes: JSON.stringify(input.scopes),
      expires_in: input.expiresIn,
      expires_at: expiresAt === null ? null : t.toDate(expiresAt),
      refresh_expires_at: input.refreshExpiresAt === null ? null : t.toDate(input.refreshExpiresAt),
      family_created_at: t.toDate(input.familyCreatedAt),
      previous_id: previousId,
      created_at: t.toDate(now),
      revoked_at: null,
      rotated_at: null,
    },
    record: (id: number): OAuthToken => ({
      ...input,
      scopes: [...input.scopes],
      refreshExpiresAt: input.refreshExpiresAt === null ? null : new Date(input.refreshExpiresAt),
      familyCreatedAt: new Date(input.familyCreatedAt),
      id,
      createdAt: new Date(now),
      expiresAt,
      revokedAt: null,
      rotatedAt: null,
      previousId,
    }),
  };
}

/** The columns of an inserted token, in the order of the compiled INSERT's parameters. */
const INSERTED = [
  "family_id", "application_id", "user_id", "access_digest", "refresh_digest", "scopes", "expires_in", "expires_at",
  "refresh_expires_at", "family_created_at", "previous_id", "created_at", "revoked_at", "rotated_at",
] as const satisfies readonly (keyof ReturnType<typeof tokenRow>["values"])[];

/**
 * Inserts a token with a statement compiled once per store (every code and refresh grant runs it):
 * the new id from `RETURNING` (SQLite, PostgreSQL) or the insert id (MySQL).
 */
async function insertToken(ctx: SqlContext, input: NewOAuthToken, now: Date, previousId: number | null): Promise<OAuthToken> {
  const row = tokenRow(ctx, input, now, previousId);
  const returning = ctx.traits.name !== "mysql";
  const result = await executeCompiled(ctx, "oauthTokens.insert", INSERTED.map((column) => row.values[column]), (arg) => {
    const insert = ctx.db.insertInto("forgekit_oauth_tokens").values(Object.fromEntries(INSERTED.map((column, i) => [column, arg(i)])) as ReturnType<typeof tokenRow>["values"]);
    return returning ? insert.returning("id") : insert;
  });
  const id = returning ? Number((result.rows[0] as { id: number | bigint } | undefined)?.id) : Number(result.insertId);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("inserting an OAuth token returned no id");
  return row.record(id);
}

export function sqlOAuthTokens(ctx: SqlContext): OAuthTokenRepository {
  const { db, traits: t } = ctx;
  // Point lookups run on every token request: compiled once per store (sql/compiled.ts).
  const findBy = async (column: "id" | "access_digest" | "refresh_digest", value: number | string) => {
    const [row] = await runCompiled(ctx, `oauthTokens.findBy.${column}`, [value], (arg) => db.selectFrom("forgekit_oauth_tokens").selectAll().where(column, "=", arg<number | string>(0)));
    return row === undefined ? null : toOAuthToken(row, t);
  };
  return {
    create: (input, now) => insertToken(ctx, input, now, null),
    findById: (id) => findBy("id", id),
    findByAccessDigest: (digest) => findBy("access_digest", digest),
    findByRefreshDigest: (digest) => findBy("refresh_digest", digest),
    async listByFamily(familyId) {
      const rows = await db.selectFrom("forgekit_oauth_tokens").selectAll().where("family_id", "=", familyId).orderBy("id").execute();
      return rows.map((row) => toOAuthToken(row, t));
    },
    rotate(previousId, next, now) {
      return atomic(ctx, async (tx) => {
        // The guarded UPDATE is the compare-and-swap: concurrent rotations of one pair wait on its
        // row lock and then find `revoked_at` set, so only the winner inserts a successor.
        const result = await executeCompiled(tx, "oauthTokens.rotateOut", [t.toDate(now), previousId], (arg) =>
          tx.db
            .updateTable("forgekit_oauth_tokens")
            .set({ revoked_at: arg(0), rotated_at: arg(0) })
            .where("id", "=", arg<number>(1))
            .where("revoked_at", "is", null),
        );
        if (Number(result.numAffectedRows ?? 0) !== 1) return null;
        return insertToken(tx, next, now, previousId);
      });
    },
    async revoke(id, now) {
      const result = await db.updateTable("forgekit_oauth_tokens").set({ revoked_at: t.toDate(now) }).where("id", "=", id).where("revoked_at", "is", null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async revokeFamily(familyId, now) {
      const result = await db
        .updateTable("forgekit_oauth_tokens")
        .set({ revoked_at: t.toDate(now) })
        .where("family_id", "=", familyId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async deleteInactive(cutoff) {
      const at = t.toDate(cutoff);
      const result = await db
        .deleteFrom("forgekit_oauth_tokens")
        .where((eb) =>
          eb.or([
            eb.and([eb("revoked_at", "is not", null), eb("revoked_at", "<", at)]),
            eb.and([
              eb("revoked_at", "is", null),
              eb("expires_at", "is not", null),
              eb("expires_at", "<", at),
              eb.or([eb("refresh_digest", "is", null), eb.and([eb("refresh_expires_at", "is not", null), eb("refresh_expires_at", "<", at)])]),
            ]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
