/**
 * The feed queries of EventRepository.list, each an index range read in feed order (migration
 * 0003_events): visibility and audience are conditions of the query itself, so pages are full.
 *
 * - project feed: the viewer's level on the one project is read first; the audience condition then
 *   is a constant bound on `e.audience` (index `forgekit_events_project*`).
 * - author feed: `e.author_id` drives (index `forgekit_events_author*`); project visibility and
 *   audience are checked per row against the project (membership subqueries only for restricted
 *   events of private projects).
 * - authorised feed (`scope=all`): one part per authorised project, each that project's range
 *   limited to the rows a page can need, merged in one UNION ALL — the cost follows the page, not
 *   the number of events the projects hold (the reference's per-project LATERAL reads, portably).
 */
import type { EventListFilter, Viewer } from "@forgekit/core";
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { SqlContext } from "../repositories/context.js";
import type { EventsTable } from "../schema-activity.js";
import type { Database, ProjectsTable } from "../schema.js";
import { everything, projectLevelAtLeast, projectVisible } from "./access.js";

type FeedDb = Database & { e: EventsTable; p: ProjectsTable };
/** A query over `forgekit_events as e` (joined with `forgekit_projects as p` in the author feed). */
export type FeedQuery = SelectQueryBuilder<FeedDb, "e" | "p", object>;
type Eb = ExpressionBuilder<FeedDb, "e" | "p">;

/** Audience ranks: 0 project, 1 signed_in, 2 members, 3 reporters. */
const GUEST = 10;
const REPORTER = 20;

/** The highest audience rank a viewer with `level` on a project sees (every rank for administrators). */
export function rankOf(viewer: Viewer, level: number): number {
  if (viewer === null) return 0;
  if (viewer.admin || level >= REPORTER) return 3;
  return level >= GUEST ? 2 : 1;
}

/** `action`, `target_type` and the creation-time bounds. */
function withFilters(query: FeedQuery, filter: EventListFilter, ctx: SqlContext): FeedQuery {
  const t = ctx.traits;
  let q = query;
  if (filter.action !== undefined) q = q.where("e.action", "=", filter.action);
  if (filter.targetType !== undefined) q = q.where("e.target_type", "=", filter.targetType);
  if (filter.createdBefore !== undefined) q = q.where("e.created_at", "<", t.toDate(filter.createdBefore));
  if (filter.createdAfter !== undefined) q = q.where("e.created_at", ">", t.toDate(filter.createdAfter));
  return q;
}

/** Events of audience rank ≤ `rank`, or addressed to the viewer. */
function audienceUpTo(eb: Eb, rank: number, viewer: Viewer): Expression<SqlBool> {
  if (rank >= 3) return everything;
  const byRank = eb("e.audience", "<=", rank);
  return viewer === null ? byRank : eb.or([byRank, eb("e.audience_user_id", "=", viewer.userId)]);
}

/** One project's events a viewer of `rank` may see. */
export function projectPart(ctx: SqlContext, filter: EventListFilter, projectId: number, rank: number): FeedQuery {
  const base = ctx.db.selectFrom("forgekit_events as e").where("e.project_id", "=", projectId) as unknown as FeedQuery;
  return withFilters(base, filter, ctx).where((eb) => audienceUpTo(eb, rank, filter.viewer));
}

/** The author's events in projects the viewer can read, with the audience checked row by row. */
export function authorFeed(ctx: SqlContext, filter: EventListFilter, authorId: number): FeedQuery {
  const t = ctx.traits;
  const { viewer, now } = filter;
  const base = ctx.db
    .selectFrom("forgekit_events as e")
    .innerJoin("forgekit_projects as p", "p.id", "e.project_id")
    .where("e.author_id", "=", authorId) as unknown as FeedQuery;
  const query = withFilters(base, filter, ctx);
  if (viewer?.admin === true) return query;
  return query
    .where((eb) => projectVisible(eb as never, t, viewer, now))
    .where((eb) => {
      if (viewer === null) return eb("e.audience", "=", 0);
      return eb.or([
        eb("e.audience", "<=", 1),
        eb("e.audience_user_id", "=", viewer.userId),
        eb.and([eb("e.audience", "=", 2), projectLevelAtLeast(eb as never, t, viewer.userId, GUEST, now)]),
        eb.and([eb("e.audience", "=", 3), projectLevelAtLeast(eb as never, t, viewer.userId, REPORTER, now)]),
      ]);
    });
}

/** Feed order: creation time, ties by id, both in `sort` direction. */
export function ordered(query: FeedQuery, filter: EventListFilter) {
  const direction = filter.sort === "asc" ? "asc" : "desc";
  return query.selectAll("e").orderBy("e.created_at", direction).orderBy("e.id", direction);
}

/** A project the user is authorised for, with the user's level and the project's visibility. */
export interface AuthorizedProject {
  projectId: number;
  level: number;
  visibility: string;
}

/**
 * Projects where the user holds an unexpired membership (directly, or on the project's namespace or
 * any ancestor) and the projects of the user's own namespace (Owner), with the highest level.
 */
export async function authorizedProjects(ctx: SqlContext, userId: number, now: Date): Promise<AuthorizedProject[]> {
  const { db, traits: t } = ctx;
  const active = (eb: ExpressionBuilder<Database & { m: Database["forgekit_members"] }, "m">) =>
    eb.or([eb("m.expires_at", "is", null), eb("m.expires_at", ">", t.toDate(now))]);
  const direct = db
    .selectFrom("forgekit_members as m")
    .select(["m.source_id as project_id", "m.access_level as level"])
    .where("m.source_type", "=", "project")
    .where("m.user_id", "=", userId)
    .where(active);
  const viaGroups = db
    .selectFrom("forgekit_members as m")
    .innerJoin("forgekit_namespace_ancestors as a", (join) => join.onRef("a.ancestor_id", "=", "m.source_id").on("m.source_type", "=", "namespace"))
    .innerJoin("forgekit_projects as pr", "pr.namespace_id", "a.namespace_id")
    .select(["pr.id as project_id", "m.access_level as level"])
    .where("m.user_id", "=", userId)
    .where(active);
  const owned = db
    .selectFrom("forgekit_namespaces as n")
    .innerJoin("forgekit_projects as pr", "pr.namespace_id", "n.id")
    .select(["pr.id as project_id", sql<number>`50`.as("level")])
    .where("n.kind", "=", "user")
    .where("n.owner_id", "=", userId);
  const rows = await db
    .selectFrom(direct.unionAll(viaGroups).unionAll(owned).as("x"))
    .innerJoin("forgekit_projects as p", "p.id", "x.project_id")
    .select((eb) => ["x.project_id", "p.visibility", eb.fn.max("x.level").as("level")])
    .groupBy(["x.project_id", "p.visibility"])
    .orderBy("x.project_id")
    .execute();
  return rows.map((row) => ({ projectId: Number(row.project_id), level: Number(row.level), visibility: row.visibility }));
}

/** Whether a viewer with `level` can read a project of `visibility` (ports/store.ts project visibility). */
export function canRead(viewer: Viewer, visibility: string, level: number): boolean {
  if (visibility === "public") return true;
  if (viewer === null) return false;
  return viewer.admin || visibility === "internal" || level > 0;
}
