/**
 * Access levels and visibility as SQL conditions over the ancestor closure table, so list filters
 * and access checks are single statements. The rules are those of ports/store.ts: the highest
 * unexpired membership on the namespace or any ancestor (plus a direct project membership for
 * projects), and a user namespace's owner counts as Owner.
 */
import { AccessLevel, type Viewer } from "@forgekit/core";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";

type MemberAlias = "m";
type Eb<A extends string> = ExpressionBuilder<any, A>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `m` (a membership row) counts at `now`: no expiry, or expiry strictly later. Without `now`, every row counts. */
function active(eb: Eb<MemberAlias>, t: DialectTraits, now: Date | undefined): Expression<SqlBool> {
  if (now === undefined) return everything;
  return eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", t.toDate(now))]);
}

/**
 * The user's level on the namespace whose id is the column `namespaceRef` reaches `min`: through a
 * membership of it or an ancestor, or (min ≤ Owner) by owning a user namespace on that chain.
 */
export function namespaceLevelAtLeast(eb: Eb<string>, t: DialectTraits, userId: number, namespaceRef: string, min: number, now: Date | undefined): Expression<SqlBool> {
  const viaMember = eb.exists(
    eb
      .selectFrom("forgekit_namespace_ancestors as a")
      .innerJoin("forgekit_members as m", (join) => join.onRef("m.source_id", "=", "a.ancestor_id").on("m.source_type", "=", "namespace"))
      .select("m.id")
      .whereRef("a.namespace_id", "=", sql.ref(namespaceRef))
      .where("m.user_id", "=", userId)
      .where("m.access_level", ">=", min)
      .where((inner) => active(inner as Eb<MemberAlias>, t, now)),
  );
  if (min > AccessLevel.Owner) return viaMember;
  const viaOwner = eb.exists(
    eb
      .selectFrom("forgekit_namespace_ancestors as a")
      .innerJoin("forgekit_namespaces as n", "n.id", "a.ancestor_id")
      .select("n.id")
      .whereRef("a.namespace_id", "=", sql.ref(namespaceRef))
      .where("n.kind", "=", "user")
      .where("n.owner_id", "=", userId),
  );
  return eb.or([viaMember, viaOwner]);
}

/** The user's level on project `p` reaches `min` (direct membership, or the namespace chain). */
export function projectLevelAtLeast(eb: Eb<"p">, t: DialectTraits, userId: number, min: number, now: Date | undefined): Expression<SqlBool> {
  const direct = eb.exists(
    eb
      .selectFrom("forgekit_members as m")
      .select("m.id")
      .where("m.source_type", "=", "project")
      .whereRef("m.source_id", "=", "p.id")
      .where("m.user_id", "=", userId)
      .where("m.access_level", ">=", min)
      .where((inner) => active(inner as Eb<MemberAlias>, t, now)),
  );
  return eb.or([direct, namespaceLevelAtLeast(eb, t, userId, "p.namespace_id", min, now)]);
}

/** Visibility of project `p`: public; internal when signed in; any where the viewer has a level; all for admins. */
export function projectVisible(eb: Eb<"p">, t: DialectTraits, viewer: Viewer, now: Date | undefined): Expression<SqlBool> {
  if (viewer === null) return eb("p.visibility", "=", "public");
  if (viewer.admin) return everything;
  return eb.or([eb("p.visibility", "in", ["public", "internal"]), projectLevelAtLeast(eb, t, viewer.userId, 1, now)]);
}

/**
 * Visibility of group `g`: public; internal when signed in; member of it or an ancestor; member of a
 * descendant group or of a project anywhere beneath it; all for admins.
 */
export function groupVisible(eb: Eb<"g">, t: DialectTraits, viewer: Viewer, now: Date | undefined): Expression<SqlBool> {
  if (viewer === null) return eb("g.visibility", "=", "public");
  if (viewer.admin) return everything;
  const belowViaGroup = eb.exists(
    eb
      .selectFrom("forgekit_namespace_ancestors as d")
      .innerJoin("forgekit_members as m", (join) => join.onRef("m.source_id", "=", "d.namespace_id").on("m.source_type", "=", "namespace"))
      .select("m.id")
      .whereRef("d.ancestor_id", "=", "g.id")
      .where("m.user_id", "=", viewer.userId)
      .where((inner) => active(inner as Eb<MemberAlias>, t, now)),
  );
  const belowViaProject = eb.exists(
    eb
      .selectFrom("forgekit_namespace_ancestors as d")
      .innerJoin("forgekit_projects as pr", "pr.namespace_id", "d.namespace_id")
      .innerJoin("forgekit_members as m", (join) => join.onRef("m.source_id", "=", "pr.id").on("m.source_type", "=", "project"))
      .select("m.id")
      .whereRef("d.ancestor_id", "=", "g.id")
      .where("m.user_id", "=", viewer.userId)
      .where((inner) => active(inner as Eb<MemberAlias>, t, now)),
  );
  return eb.or([
    eb("g.visibility", "in", ["public", "internal"]),
    namespaceLevelAtLeast(eb, t, viewer.userId, "g.id", 1, now),
    belowViaGroup,
    belowViaProject,
  ]);
}

/** A condition that matches nothing (filters that need a signed-in viewer, asked anonymously). */
export const nothing = sql<SqlBool>`1 = 0`;
/** A condition that matches everything. */
export const everything = sql<SqlBool>`1 = 1`;
