/** SQL AccessTokenRepository and SettingsRepository. */
import type { AccessTokenRepository, SettingsRepository } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { UsersTable } from "../schema.js";
import { runCompiled } from "../sql/compiled.js";
import type { SqlContext } from "./context.js";
import { findByDigestWithProject, prefixedColumns, prefixedRow, USER_COLUMNS } from "./project-read.js";
import { toToken, toUser } from "./rows.js";

/** The `u_`-prefixed user columns of a joined row; null when the left join found no user. */
function userRowOf(row: Record<string, unknown>): Selectable<UsersTable> | null {
  return prefixedRow<UsersTable>(row, "u", USER_COLUMNS);
}

export function sqlAccessTokens(ctx: SqlContext): AccessTokenRepository {
  const { db, traits: t } = ctx;
  return {
    async create(input, now) {
      const resourceId = input.resourceId ?? null;
      const id = await t.insert(db, "forgekit_access_tokens", {
        kind: input.kind,
        user_id: input.userId,
        name: input.name,
        scopes: JSON.stringify(input.scopes),
        digest: input.digest,
        expires_at: input.expiresAt === null ? null : t.toDate(input.expiresAt),
        revoked: t.toBool(false),
        resource_id: resourceId,
        last_used_at: null,
        created_at: t.toDate(now),
        previous_token_id: input.previousTokenId ?? null,
      });
      return {
        id,
        kind: input.kind,
        userId: input.userId,
        name: input.name,
        scopes: [...input.scopes],
        digest: input.digest,
        expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt),
        revoked: false,
        resourceId,
        lastUsedAt: null,
        createdAt: new Date(now),
      };
    },
    async revokeFamily(id) {
      let revoked = 0;
      let frontier = [id];
      // Each rotation adds one generation; walk them until no token names one of the last ones.
      while (frontier.length > 0) {
        const next = await db.selectFrom("forgekit_access_tokens").select(["id", "revoked"]).where("previous_token_id", "in", frontier).execute();
        const live = next.filter((row) => !t.fromBool(row.revoked)).map((row) => row.id);
        if (live.length > 0) {
          const result = await db.updateTable("forgekit_access_tokens").set({ revoked: t.toBool(true) }).where("id", "in", live).where("revoked", "=", t.toBool(false)).executeTakeFirst();
          revoked += Number(result.numUpdatedRows);
        }
        frontier = next.map((row) => row.id);
      }
      return revoked;
    },
    async findById(id) {
      const row = await db.selectFrom("forgekit_access_tokens").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : toToken(row, t);
    },
    async findByDigest(digest) {
      const [row] = await runCompiled(ctx, "accessTokens.findByDigest", [digest], (arg) =>
        db.selectFrom("forgekit_access_tokens").selectAll().where("digest", "=", arg<string>(0)),
      );
      return row === undefined ? null : toToken(row, t);
    },
    async findByDigestWithUser(digest) {
      const [row] = await runCompiled(ctx, "accessTokens.findByDigestWithUser", [digest], (arg) =>
        db
          .selectFrom("forgekit_access_tokens as t")
          .leftJoin("forgekit_users as u", "u.id", "t.user_id")
          .selectAll("t")
          .select(prefixedColumns("u", "u", USER_COLUMNS))
          .where("t.digest", "=", arg<string>(0)),
      );
      if (row === undefined) return null;
      const user = userRowOf(row);
      return { token: toToken(row, t), user: user === null ? null : toUser(user, t) };
    },
    findByDigestWithProject: (digest, projectId, now) => findByDigestWithProject(ctx, digest, projectId, now),
    async list(filter) {
      const { now } = filter;
      if (filter.state !== undefined && now === undefined) throw new TypeError("TokenListFilter.state needs now");
      let query = db.selectFrom("forgekit_access_tokens").selectAll();
      if (filter.userId !== undefined) query = query.where("user_id", "=", filter.userId);
      if (filter.kind !== undefined) query = query.where("kind", "=", filter.kind);
      if (filter.resourceId !== undefined) query = query.where("resource_id", "=", filter.resourceId);
      if (filter.state !== undefined && now !== undefined) {
        const at = t.toDate(now);
        query =
          filter.state === "active"
            ? query.where("revoked", "=", t.toBool(false)).where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", at)]))
            : query.where((eb) => eb.or([eb("revoked", "=", t.toBool(true)), eb("expires_at", "<=", at)]));
      }
      const rows = await query.orderBy("id").execute();
      return rows.map((row) => toToken(row, t));
    },
    async revoke(id) {
      const result = await db
        .updateTable("forgekit_access_tokens")
        .set({ revoked: t.toBool(true) })
        .where("id", "=", id)
        .where("revoked", "=", t.toBool(false))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async touchLastUsed(id, at) {
      await db.updateTable("forgekit_access_tokens").set({ last_used_at: t.toDate(at) }).where("id", "=", id).execute();
    },
  };
}

export function sqlSettings(ctx: SqlContext): SettingsRepository {
  const { db, traits: t } = ctx;
  return {
    async get(key) {
      const row = await db.selectFrom("forgekit_settings").select("value").where("name", "=", key).executeTakeFirst();
      return row === undefined ? null : row.value;
    },
    async set(key, value) {
      if (value === null) {
        await db.deleteFrom("forgekit_settings").where("name", "=", key).execute();
        return;
      }
      await t.upsert(db, "forgekit_settings", { name: key, value }, ["name"], ["value"]);
    },
  };
}
