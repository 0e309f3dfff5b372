/** SQL NamespaceRepository: namespaces, their ancestor closure, and the group list. */
import type { GroupListFilter, KeysetPageResult, Namespace, NamespaceRepository, OffsetPageResult } from "@forgekit/core";
import type { SelectQueryBuilder, Updateable } from "kysely";
import type { Database, NamespacesTable } from "../schema.js";
import { groupVisible, namespaceLevelAtLeast, nothing } from "../sql/access.js";
import { decodeNameCursor, encodeNameCursor } from "@forgekit/core/internal";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { containsFolded, fold } from "../sql/text.js";
import { runCompiled } from "../sql/compiled.js";
import { atomic, type SqlContext } from "./context.js";
import { toNamespace } from "./rows.js";
import { removeGroup } from "./container-removal.js";
import { sqlNamespaceListing } from "./namespace-list.js";

type GroupQuery = SelectQueryBuilder<Database & { g: NamespacesTable }, "g", object>;

function filteredGroups(ctx: SqlContext, filter: GroupListFilter): GroupQuery {
  const { viewer, now } = filter;
  const t = ctx.traits;
  let query: GroupQuery = ctx.db.selectFrom("forgekit_namespaces as g").where("g.kind", "=", "group");
  query = query.where((eb) => groupVisible(eb, t, viewer, now));
  if (filter.topLevelOnly === true) query = query.where("g.parent_id", "is", null);
  if (filter.parentId !== undefined) query = query.where("g.parent_id", "=", filter.parentId);
  const { ancestorId } = filter;
  if (ancestorId !== undefined) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom("forgekit_namespace_ancestors as a").select("a.namespace_id").whereRef("a.namespace_id", "=", "g.id").where("a.ancestor_id", "=", ancestorId).where("a.depth", ">", 0)),
    );
  }
  const { search } = filter;
  if (search !== undefined) query = query.where((eb) => eb.or([containsFolded("g.name_lower", search), containsFolded("g.path_lower", search)]));
  const levels = [filter.minAccessLevel ?? 0, filter.owned === true ? 50 : 0].filter((level) => level > 0);
  for (const level of levels) {
    query = viewer === null ? query.where(nothing) : query.where((eb) => namespaceLevelAtLeast(eb, t, viewer.userId, "g.id", level, now));
  }
  return query;
}

export function sqlNamespaces(ctx: SqlContext): NamespaceRepository {
  const { db, traits: t } = ctx;
  const findById = async (id: number) => {
    const [row] = await runCompiled(ctx, "namespaces.findById", [id], (arg) => db.selectFrom("forgekit_namespaces").selectAll().where("id", "=", arg<number>(0)));
    return row === undefined ? null : toNamespace(row, t);
  };
  return {
    ...sqlNamespaceListing(ctx),
    create: (input, now) =>
      atomic(ctx, async (tx) => {
        let fullPath = input.path;
        let chain: { ancestor_id: number; depth: number }[] = [];
        if (input.parentId !== null) {
          const parent = await tx.db.selectFrom("forgekit_namespaces").select("full_path").where("id", "=", input.parentId).executeTakeFirst();
          if (parent === undefined) throw new Error(`parent namespace ${input.parentId} does not exist`);
          fullPath = `${parent.full_path}/${input.path}`;
          chain = await tx.db.selectFrom("forgekit_namespace_ancestors").select(["ancestor_id", "depth"]).where("namespace_id", "=", input.parentId).execute();
        }
        const description = input.description ?? "";
        const id = await t.insertOrIgnore(tx.db, "forgekit_namespaces", {
          kind: input.kind,
          path: input.path,
          path_lower: fold(input.path),
          name: input.name,
          name_lower: fold(input.name),
          full_path: fullPath,
          full_path_lower: fold(fullPath),
          parent_id: input.parentId,
          owner_id: input.ownerId,
          visibility: input.visibility,
          description,
          created_at: t.toDate(now),
          updated_at: t.toDate(now),
        });
        if (id === null) return null;
        const links = [{ namespace_id: id, ancestor_id: id, depth: 0 }, ...chain.map((link) => ({ namespace_id: id, ancestor_id: Number(link.ancestor_id), depth: Number(link.depth) + 1 }))];
        await tx.db.insertInto("forgekit_namespace_ancestors").values(links).execute();
        const namespace: Namespace = {
          id,
          kind: input.kind,
          path: input.path,
          name: input.name,
          fullPath,
          parentId: input.parentId,
          ownerId: input.ownerId,
          visibility: input.visibility,
          description,
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        return namespace;
      }),
    findById,
    async findByFullPath(fullPath) {
      const row = await db.selectFrom("forgekit_namespaces").selectAll().where("full_path_lower", "=", fold(fullPath)).executeTakeFirst();
      return row === undefined ? null : toNamespace(row, t);
    },
    async ancestors(id) {
      const rows = await runCompiled(ctx, "namespaces.ancestors", [id], (arg) =>
        db
          .selectFrom("forgekit_namespace_ancestors as a")
          .innerJoin("forgekit_namespaces as n", "n.id", "a.ancestor_id")
          .selectAll("n")
          .where("a.namespace_id", "=", arg<number>(0))
          .where("a.depth", ">", 0)
          .orderBy("a.depth"),
      );
      return rows.map((row) => toNamespace(row, t));
    },
    async chain(id) {
      const rows = await runCompiled(ctx, "namespaces.chain", [id], (arg) =>
        db
          .selectFrom("forgekit_namespace_ancestors as a")
          .innerJoin("forgekit_namespaces as n", "n.id", "a.ancestor_id")
          .selectAll("n")
          .where("a.namespace_id", "=", arg<number>(0))
          .orderBy("a.depth"),
      );
      return rows.map((row) => toNamespace(row, t));
    },
    removeGroup: (id) => removeGroup(ctx, id),
    async updateGroup(id, patch) {
      const set: Updateable<NamespacesTable> = {};
      if (patch.name !== undefined) Object.assign(set, { name: patch.name, name_lower: fold(patch.name) });
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.visibility !== undefined) set.visibility = patch.visibility;
      if (patch.updatedAt !== undefined) set.updated_at = t.toDate(patch.updatedAt);
      if (Object.keys(set).length > 0) await db.updateTable("forgekit_namespaces").set(set).where("id", "=", id).where("kind", "=", "group").execute();
      const row = await findById(id);
      return row?.kind === "group" ? row : null;
    },
    async listGroups(filter, page): Promise<OffsetPageResult<Namespace> | KeysetPageResult<Namespace>> {
      const direction = filter.sort === "desc" ? "desc" : "asc";
      const map = (row: Parameters<typeof toNamespace>[0]) => toNamespace(row, t);
      if (page.kind === "offset") {
        const orderBy = filter.orderBy ?? "name";
        const column = orderBy === "name" ? "g.name_lower" : orderBy === "path" ? "g.path_lower" : "g.id";
        return offsetPage(db, filteredGroups(ctx, filter), (q) => q.selectAll("g").orderBy(column, direction).orderBy("g.id", direction), page, map);
      }
      if (filter.orderBy !== undefined && filter.orderBy !== "name") {
        throw new RangeError(`keyset pagination of groups orders by name only, not ${filter.orderBy}`);
      }
      checkPage(page);
      let query = filteredGroups(ctx, filter);
      if (page.after !== undefined) {
        const after = decodeNameCursor(page.after);
        const op = direction === "asc" ? ">" : "<";
        query = query.where((eb) => eb.or([eb("g.name_lower", op, after.name), eb.and([eb("g.name_lower", "=", after.name), eb("g.id", op, after.id)])]));
      }
      const rows = await query.selectAll("g").orderBy("g.name_lower", direction).orderBy("g.id", direction).limit(page.perPage + 1).execute();
      const items = rows.slice(0, page.perPage);
      const last = items.at(-1);
      return {
        items: items.map(map),
        nextCursor: rows.length > page.perPage && last !== undefined ? encodeNameCursor(last.name_lower, Number(last.id)) : null,
      };
    },
  };
}
