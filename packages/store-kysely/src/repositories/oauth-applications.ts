/** SQL OAuthApplicationRepository and OAuthKeyRepository. */
import type { OAuthApplicationRepository, OAuthKeyRepository } from "@forgekit/core";
import { runCompiled } from "../sql/compiled.js";
import { atomic, type SqlContext } from "./context.js";
import { toApplication, toKey } from "./oauth-rows.js";

export function sqlOAuthApplications(ctx: SqlContext): OAuthApplicationRepository {
  const { db, traits: t } = ctx;
  const byId = async (id: number) => {
    const [row] = await runCompiled(ctx, "oauthApplications.findById", [id], (arg) => db.selectFrom("forgekit_oauth_applications").selectAll().where("id", "=", arg<number>(0)));
    return row === undefined ? null : toApplication(row, t);
  };
  return {
    async create(input, now) {
      const id = await t.insertOrIgnore(db, "forgekit_oauth_applications", {
        uid: input.uid,
        secret_digest: input.secretDigest,
        name: input.name,
        redirect_uris: JSON.stringify(input.redirectUris),
        scopes: JSON.stringify(input.scopes),
        confidential: t.toBool(input.confidential),
        trusted: t.toBool(input.trusted),
        ropc_enabled: t.toBool(input.ropcEnabled),
        owner_id: input.ownerId,
        created_at: t.toDate(now),
        updated_at: t.toDate(now),
      });
      return id === null ? null : byId(id);
    },
    findById: byId,
    async findByUid(uid) {
      // Every client authentication: compiled once per store.
      const [row] = await runCompiled(ctx, "oauthApplications.findByUid", [uid], (arg) => db.selectFrom("forgekit_oauth_applications").selectAll().where("uid", "=", arg<string>(0)));
      return row === undefined ? null : toApplication(row, t);
    },
    async list(filter) {
      let query = db.selectFrom("forgekit_oauth_applications").selectAll();
      if (filter.ownerId !== undefined) query = query.where("owner_id", "=", filter.ownerId);
      return (await query.orderBy("id").execute()).map((row) => toApplication(row, t));
    },
    async update(id, patch, now) {
      const set: Record<string, unknown> = { updated_at: t.toDate(now) };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.redirectUris !== undefined) set.redirect_uris = JSON.stringify(patch.redirectUris);
      if (patch.scopes !== undefined) set.scopes = JSON.stringify(patch.scopes);
      if (patch.confidential !== undefined) set.confidential = t.toBool(patch.confidential);
      if (patch.trusted !== undefined) set.trusted = t.toBool(patch.trusted);
      if (patch.ropcEnabled !== undefined) set.ropc_enabled = t.toBool(patch.ropcEnabled);
      if (patch.secretDigest !== undefined) set.secret_digest = patch.secretDigest;
      const result = await db.updateTable("forgekit_oauth_applications").set(set).where("id", "=", id).executeTakeFirst();
      return Number(result.numUpdatedRows) === 0 ? null : byId(id);
    },
    delete(id) {
      // The foreign keys cascade too; deleting the children first keeps the rule independent of
      // whether a caller's SQLite handle has foreign keys switched on.
      return atomic(ctx, async ({ db: tx }) => {
        await tx.deleteFrom("forgekit_oauth_codes").where("application_id", "=", id).execute();
        await tx.deleteFrom("forgekit_oauth_tokens").where("application_id", "=", id).execute();
        const result = await tx.deleteFrom("forgekit_oauth_applications").where("id", "=", id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
  };
}

export function sqlOAuthKeys(ctx: SqlContext): OAuthKeyRepository {
  const { db, traits: t } = ctx;
  const get: OAuthKeyRepository["get"] = async (kind) => {
    const row = await db.selectFrom("forgekit_oauth_keys").selectAll().where("kind", "=", kind).executeTakeFirst();
    return row === undefined ? null : toKey(row, t);
  };
  return {
    get,
    async putIfAbsent(kind, value, now) {
      // Insert-or-ignore, then read: a racing writer's key wins for everyone once committed.
      await t.guardUnique(db, (d) => d.insertInto("forgekit_oauth_keys").values({ kind, value, created_at: t.toDate(now) }).execute());
      const stored = await get(kind);
      if (stored === null) throw new Error(`OAuth key ${kind} vanished right after it was stored`);
      return stored;
    },
    async replace(kind, expected, value) {
      // One guarded UPDATE is the compare-and-swap: racing writers of the row are serialised by
      // the database and re-check `value = expected`, so only the first changes it.
      const result = await db.updateTable("forgekit_oauth_keys").set({ value }).where("kind", "=", kind).where("value", "=", expected).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
