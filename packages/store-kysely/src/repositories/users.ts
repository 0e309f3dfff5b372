/** SQL UserRepository. */
import type { UserPatch, UserRepository } from "@forgekit/core";
import { sql, type Updateable } from "kysely";
import type { UsersTable } from "../schema.js";
import { offsetPage } from "../sql/pagination.js";
import { containsFolded, fold } from "../sql/text.js";
import { runCompiled } from "../sql/compiled.js";
import { atomic, type SqlContext } from "./context.js";
import { toUser } from "./rows.js";
import { uncountAuthor } from "./event-counts.js";

function patchColumns(patch: UserPatch, ctx: SqlContext): Updateable<UsersTable> {
  const t = ctx.traits;
  const set: Updateable<UsersTable> = {};
  if (patch.username !== undefined) Object.assign(set, { username: patch.username, username_lower: fold(patch.username) });
  if (patch.name !== undefined) Object.assign(set, { name: patch.name, name_lower: fold(patch.name) });
  if (patch.state !== undefined) set.state = patch.state;
  if (patch.admin !== undefined) set.admin = t.toBool(patch.admin);
  if (patch.bot !== undefined) set.bot = patch.bot;
  if (patch.twoFactorEnabled !== undefined) set.two_factor_enabled = t.toBool(patch.twoFactorEnabled);
  if (patch.privateProfile !== undefined) set.private_profile = t.toBool(patch.privateProfile);
  if (patch.avatarUrl !== undefined) set.avatar_url = patch.avatarUrl;
  if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
  if (patch.namespaceId !== undefined) set.namespace_id = patch.namespaceId;
  if (patch.externalId !== undefined) set.external_id = patch.externalId;
  if (patch.updatedAt !== undefined) set.updated_at = t.toDate(patch.updatedAt);
  return set;
}

/** Sort columns of `users.list` (folded text columns, so the order is the memory store's). */
const ORDER_COLUMNS = {
  id: "u.id",
  name: "u.name_lower",
  username: "u.username_lower",
  created_at: "u.created_at",
  updated_at: "u.updated_at",
  // Never active sorts before every day (the memory store's order; NULL order differs per dialect).
  last_activity_on: sql<string>`coalesce(u.last_activity_on, '')`,
} as const;

const OWNER = 50;

/** Tables whose rows name an author (the activity tables). */
const AUTHORED_TABLES = ["forgekit_issues", "forgekit_merge_requests", "forgekit_notes", "forgekit_snippets", "forgekit_events"] as const;

export function sqlUsers(ctx: SqlContext): UserRepository {
  const { db, traits: t } = ctx;
  const findById = async (id: number) => {
    const [row] = await runCompiled(ctx, "users.findById", [id], (arg) => db.selectFrom("forgekit_users").selectAll().where("id", "=", arg<number>(0)));
    return row === undefined ? null : toUser(row, t);
  };
  return {
    async create(input, now) {
      const values = {
        username: input.username,
        username_lower: fold(input.username),
        name: input.name,
        name_lower: fold(input.name),
        state: input.state ?? "active",
        admin: t.toBool(input.admin ?? false),
        bot: input.bot ?? null,
        two_factor_enabled: t.toBool(input.twoFactorEnabled ?? false),
        private_profile: t.toBool(input.privateProfile ?? false),
        avatar_url: input.avatarUrl ?? null,
        password_hash: input.passwordHash ?? null,
        namespace_id: null,
        external_id: input.externalId ?? null,
        created_at: t.toDate(now),
        updated_at: t.toDate(now),
      };
      const id = await t.insertOrIgnore(db, "forgekit_users", values);
      if (id === null) return null;
      return {
        id,
        username: values.username,
        name: values.name,
        state: values.state,
        admin: input.admin ?? false,
        bot: values.bot,
        twoFactorEnabled: input.twoFactorEnabled ?? false,
        privateProfile: input.privateProfile ?? false,
        avatarUrl: values.avatar_url,
        passwordHash: values.password_hash,
        namespaceId: null,
        externalId: values.external_id,
        lastActivityOn: null,
        createdAt: new Date(now),
        updatedAt: new Date(now),
      };
    },
    findById,
    async findByUsername(username) {
      const row = await db.selectFrom("forgekit_users").selectAll().where("username_lower", "=", fold(username)).executeTakeFirst();
      return row === undefined ? null : toUser(row, t);
    },
    async findByExternalId(externalId) {
      const row = await db.selectFrom("forgekit_users").selectAll().where("external_id", "=", externalId).executeTakeFirst();
      return row === undefined ? null : toUser(row, t);
    },
    async findByIds(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom("forgekit_users").selectAll().where("id", "in", [...new Set(ids)]).orderBy("id").execute();
      return rows.map((row) => toUser(row, t));
    },
    async update(id, patch) {
      const set = patchColumns(patch, ctx);
      if (Object.keys(set).length > 0) {
        const updated = await t.guardUnique(db, (handle) => handle.updateTable("forgekit_users").set(set).where("id", "=", id).execute());
        if (updated === null) return null;
      }
      return findById(id);
    },
    async list(filter, page) {
      let query = db.selectFrom("forgekit_users as u");
      if (filter.state !== undefined) query = query.where("u.state", "=", filter.state);
      if (filter.username !== undefined) query = query.where("u.username_lower", "=", fold(filter.username));
      if (filter.includeBots !== true) query = query.where("u.bot", "is", null);
      if (filter.activeSince !== undefined) query = query.where("u.last_activity_on", ">=", filter.activeSince);
      const { search } = filter;
      if (search !== undefined) {
        query = query.where((eb) =>
          eb.or([
            containsFolded("u.username_lower", search),
            containsFolded("u.name_lower", search),
            eb.exists(
              eb
                .selectFrom("forgekit_emails as e")
                .select("e.id")
                .whereRef("e.user_id", "=", "u.id")
                .where("e.is_primary", "=", t.toBool(true))
                .where(containsFolded("e.email_lower", search)),
            ),
          ]),
        );
      }
      const direction = filter.sort === "desc" ? "desc" : "asc";
      // With activeSince no row lacks a day: the plain column lets the (last_activity_on, id) index give the order.
      const key = filter.orderBy === "last_activity_on" && filter.activeSince !== undefined ? "u.last_activity_on" : ORDER_COLUMNS[filter.orderBy ?? "id"];
      return offsetPage(
        db,
        query,
        (q) => (key === "u.id" ? q.selectAll("u").orderBy("u.id", direction) : q.selectAll("u").orderBy(key, direction).orderBy("u.id", direction)),
        page,
        (row) => toUser(row, t),
      );
    },
    async recordActivity(id, day) {
      // One conditional statement: only an older (or no) day is replaced, so racing writers never
      // move the day back and a day already recorded costs no row change.
      const result = await db
        .updateTable("forgekit_users")
        .set({ last_activity_on: day })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("last_activity_on", "is", null), eb("last_activity_on", "<", day)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    rename: (id, username, now) =>
      atomic(ctx, async (tx) => {
        const query = tx.db.selectFrom("forgekit_users").select(["id", "namespace_id", "username"]).where("id", "=", id);
        const user = await (t.supportsForUpdate ? query.forUpdate() : query).executeTakeFirst();
        if (user === undefined) return "missing";
        const at = t.toDate(now);
        const setPath = (path: string) =>
          t.guardUnique(tx.db, (handle) =>
            handle
              .updateTable("forgekit_namespaces")
              .set({ path, path_lower: fold(path), full_path: path, full_path_lower: fold(path), updated_at: at })
              .where("id", "=", user.namespace_id ?? -1)
              .where("kind", "=", "user")
              .execute(),
          );
        if (user.namespace_id !== null && (await setPath(username)) === null) return "taken";
        const renamed = await t.guardUnique(tx.db, (handle) =>
          handle.updateTable("forgekit_users").set({ username, username_lower: fold(username), updated_at: at }).where("id", "=", id).execute(),
        );
        if (renamed !== null) return "renamed";
        // The username is taken: put the namespace path back (same transaction), change nothing.
        if (user.namespace_id !== null) await setPath(user.username);
        return "taken";
      }),
    async holdings(id, now) {
      const at = now === undefined ? undefined : t.toDate(now);
      const count = async (query: { executeTakeFirst(): Promise<{ n: number | string | bigint } | undefined> }) => Number((await query.executeTakeFirst())?.n ?? 0);
      const projects = await count(
        db
          .selectFrom("forgekit_projects as p")
          .innerJoin("forgekit_users as u", "u.namespace_id", "p.namespace_id")
          .where("u.id", "=", id)
          .select((eb) => eb.fn.countAll<number | string | bigint>().as("n")),
      );
      const soleOwnedGroups = await count(
        db
          .selectFrom("forgekit_members as m")
          .where("m.user_id", "=", id)
          .where("m.source_type", "=", "namespace")
          .where("m.access_level", "=", OWNER)
          .$if(at !== undefined, (q) => q.where((eb) => eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", at ?? null)])))
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom("forgekit_members as o")
                  .select("o.id")
                  .whereRef("o.source_id", "=", "m.source_id")
                  .where("o.source_type", "=", "namespace")
                  .where("o.access_level", "=", OWNER)
                  .where("o.user_id", "<>", id)
                  .$if(at !== undefined, (q) => q.where((inner) => inner.or([inner("o.expires_at", "is", null), inner("o.expires_at", ">", at ?? null)]))),
              ),
            ),
          )
          .select((eb) => eb.fn.countAll<number | string | bigint>().as("n")),
      );
      let authoredRecords = 0;
      for (const table of AUTHORED_TABLES) {
        authoredRecords += await count(db.selectFrom(table).where("author_id", "=", id).select((eb) => eb.fn.countAll<number | string | bigint>().as("n")));
      }
      return { projects, soleOwnedGroups, authoredRecords };
    },
    remove: (id) =>
      atomic(ctx, async ({ db: tx }) => {
        const user = await tx.selectFrom("forgekit_users").select(["id", "namespace_id"]).where("id", "=", id).executeTakeFirst();
        if (user === undefined) return false;
        // OAuth rows carry the user id without a foreign key; the applications the user owns go too
        // (with their codes and tokens, by cascade), as the reference destroys them with the user.
        await tx.deleteFrom("forgekit_oauth_tokens").where("user_id", "=", id).execute();
        await tx.deleteFrom("forgekit_oauth_codes").where("user_id", "=", id).execute();
        await tx.deleteFrom("forgekit_oauth_applications").where("owner_id", "=", id).execute();
        // The personal namespace references the user (owner_id, no cascade): it goes first.
        await tx.deleteFrom("forgekit_namespaces").where("owner_id", "=", id).where("kind", "=", "user").execute();
        // Emails, memberships, access tokens, notification settings and authored rows cascade; the
        // project event counters lose the user's events first (the author counters cascade).
        await uncountAuthor({ ...ctx, db: tx }, id);
        await tx.updateTable("forgekit_notes").set({ resolved_by_id: null }).where("resolved_by_id", "=", id).execute();
        const deleted = await tx.deleteFrom("forgekit_users").where("id", "=", id).executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      }),
  };
}
