/** SQL {@link NamespaceListing}: the `GET /namespaces` list and hierarchy member counts, one statement each. */
import type { NamespaceListFilter, NamespaceListing } from "@forgekit/core";
import type { Expression, ExpressionBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import type { Database, NamespacesTable } from "../schema.js";
import { offsetPage } from "../sql/pagination.js";
import { containsFolded } from "../sql/text.js";
import type { SqlContext } from "./context.js";
import { toNamespace } from "./rows.js";

type NamespaceQuery = SelectQueryBuilder<Database & { n: NamespacesTable }, "n", object>;

/** `m` (a membership row) counts at `now`: no expiry, or expiry strictly later; every row without `now`. */
function activeAt(ctx: SqlContext, eb: ExpressionBuilder<Database & { m: Database["forgekit_members"] }, "m">, now: Date | undefined): Expression<SqlBool> {
  if (now === undefined) return eb.lit(true);
  return eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", ctx.traits.toDate(now))]);
}

function filtered(ctx: SqlContext, filter: NamespaceListFilter): NamespaceQuery {
  let query: NamespaceQuery = ctx.db.selectFrom("forgekit_namespaces as n");
  const { memberId } = filter;
  if (memberId !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb.and([eb("n.kind", "=", "user"), eb("n.owner_id", "=", memberId)]),
        eb.and([
          eb("n.kind", "=", "group"),
          eb.exists(
            eb
              .selectFrom("forgekit_members as m")
              .select("m.id")
              .whereRef("m.source_id", "=", "n.id")
              .where("m.source_type", "=", "namespace")
              .where("m.user_id", "=", memberId)
              .where("m.access_level", ">=", filter.ownedOnly === true ? 50 : 0)
              .where((inner) => activeAt(ctx, inner, filter.now)),
          ),
        ]),
      ]),
    );
  }
  if (filter.topLevelOnly === true) query = query.where("n.parent_id", "is", null);
  const { search } = filter;
  if (search !== undefined) query = query.where((eb) => eb.or([containsFolded("n.name_lower", search), containsFolded("n.path_lower", search)]));
  return query;
}

/** The namespace listing over SQL. */
export function sqlNamespaceListing(ctx: SqlContext): NamespaceListing {
  const { db, traits: t } = ctx;
  return {
    listNamespaces: (filter, page) => offsetPage(db, filtered(ctx, filter), (q) => q.selectAll("n").orderBy("n.id", "asc"), page, (row) => toNamespace(row, t)),
    async membersWithDescendants(groupIds, now) {
      if (groupIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("forgekit_namespace_ancestors as a")
        .innerJoin("forgekit_namespaces as g", "g.id", "a.ancestor_id")
        // Expired memberships are left out in the join, so a group whose members all expired counts 0.
        .leftJoin("forgekit_members as m", (join) =>
          join
            .onRef("m.source_id", "=", "a.namespace_id")
            .on("m.source_type", "=", "namespace")
            .on((eb) => activeAt(ctx, eb, now)),
        )
        .select((eb) => ["a.ancestor_id as id", eb.fn.count<number | string>("m.user_id").distinct().as("count")])
        .where("g.kind", "=", "group")
        .where("a.ancestor_id", "in", [...new Set(groupIds)])
        .groupBy("a.ancestor_id")
        .execute();
      return new Map(rows.map((row) => [Number(row.id), Number(row.count)]));
    },
  };
}
