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
import type { EventListFilter, ProjectFeature, ProjectFeatures, Viewer } from "@forgekit/core";
import { featureLevelOf } from "@forgekit/core";
import { featureAvailableAt, NOTEABLE_FEATURES, TARGET_FEATURES } from "@forgekit/core/internal";
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { SqlContext } from "../repositories/context.js";
import type { EventsTable } from "../schema-activity.js";
import type { Database, ProjectsTable } from "../schema.js";
import { everything, nothing, projectLevelAtLeast, projectVisible } from "./access.js";

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

/** The project column of each feature's level (the reference's numbers: 0, 10, 20). */
const FEATURE_COLUMNS = { issues: "p.issues_access_level", mergeRequests: "p.merge_requests_access_level", repository: "p.repository_access_level", snippets: "p.snippets_access_level" } as const;
const FEATURES = Object.keys(FEATURE_COLUMNS) as ProjectFeature[];

/**
 * Whether the event belongs to `feature` (core events/features.ts `eventFeature`, in SQL): its
 * target type, pushes for the repository, and notes by the `noteableType` of their JSON payload
 * (a quote inside a note's text is escaped there, so only the key itself matches).
 */
function ofFeature(eb: Eb, feature: ProjectFeature): Expression<SqlBool> {
  const type = eb.fn.coalesce("e.target_type", sql.lit(""));
  const payload = eb.fn.coalesce("e.payload", sql.lit(""));
  const conditions: Expression<SqlBool>[] = feature === "repository" ? [eb("e.action", "=", "pushed")] : [];
  for (const [target, owner] of Object.entries(TARGET_FEATURES)) if (owner === feature) conditions.push(eb(type, "=", target));
  for (const [noteable, owner] of Object.entries(NOTEABLE_FEATURES)) if (owner === feature) conditions.push(eb.and([eb(type, "=", "Note"), eb(payload, "like", `%"noteableType":"${noteable}"%`)]));
  return eb.or(conditions);
}

/** The features of a project a viewer with `level` may not use (their events leave the feed). */
export function hiddenFeatures(viewer: Viewer, project: { visibility: string; features: ProjectFeatures }, level: number): ProjectFeature[] {
  return FEATURES.filter((feature) => !featureAvailableAt(project as never, feature, level, viewer?.admin === true));
}

/** Feature levels read from a project row's columns. */
export function featuresOf(row: { issues_access_level: unknown; merge_requests_access_level: unknown; repository_access_level: unknown; snippets_access_level: unknown }): ProjectFeatures {
  return {
    issues: featureLevelOf(Number(row.issues_access_level)),
    mergeRequests: featureLevelOf(Number(row.merge_requests_access_level)),
    repository: featureLevelOf(Number(row.repository_access_level)),
    snippets: featureLevelOf(Number(row.snippets_access_level)),
  };
}

/** Events of audience rank ≤ `rank`, or addressed to the viewer. */
function audienceUpTo(eb: Eb, rank: number, viewer: Viewer): Expression<SqlBool> {
  if (rank >= 3) return everything;
  const byRank = eb("e.audience", "<=", rank);
  return viewer === null ? byRank : eb.or([byRank, eb("e.audience_user_id", "=", viewer.userId)]);
}

/** One project's events a viewer of `rank` may see, without those of the `hidden` features. */
export function projectPart(ctx: SqlContext, filter: EventListFilter, projectId: number, rank: number, hidden: readonly ProjectFeature[] = []): FeedQuery {
  const base = ctx.db.selectFrom("forgekit_events as e").where("e.project_id", "=", projectId) as unknown as FeedQuery;
  const query = withFilters(base, filter, ctx).where((eb) => audienceUpTo(eb, rank, filter.viewer));
  return hidden.length === 0 ? query : query.where((eb) => eb.not(eb.or(hidden.map((feature) => ofFeature(eb, feature)))));
}

/**
 * Row by row (author feed): the event's feature is `enabled`, or `private` and the viewer a member
 * at its minimum level (access/features.ts: Reporter for merge requests and a private project's
 * repository, Guest otherwise), or the event belongs to no restricted feature.
 */
function featureVisible(eb: Eb, ctx: SqlContext, viewer: Viewer, now: Date): Expression<SqlBool> {
  const t = ctx.traits;
  const atLeast = (level: number) => (viewer === null ? nothing : viewer.admin ? everything : projectLevelAtLeast(eb as never, t, viewer.userId, level, now));
  return eb.and(
    FEATURES.map((feature) => {
      const column = FEATURE_COLUMNS[feature];
      const member =
        feature === "mergeRequests"
          ? atLeast(REPORTER)
          : feature === "repository"
            ? eb.or([eb.and([eb("p.visibility", "=", "private"), atLeast(REPORTER)]), eb.and([eb("p.visibility", "<>", "private"), atLeast(GUEST)])])
            : atLeast(GUEST);
      return eb.or([eb.not(ofFeature(eb, feature)), eb(column, ">=", 20), eb.and([eb(column, ">=", 10), member])]);
    }),
  );
}

/** The author's events in projects the viewer can read, with the audience checked row by row. */
export function authorFeed(ctx: SqlContext, filter: EventListFilter, authorId: number): FeedQuery {
  const t = ctx.traits;
  const { viewer, now } = filter;
  const base = ctx.db
    .selectFrom("forgekit_events as e")
    .innerJoin("forgekit_projects as p", "p.id", "e.project_id")
    .where("e.author_id", "=", authorId) as unknown as FeedQuery;
  const query = withFilters(base, filter, ctx).where((eb) => featureVisible(eb, ctx, viewer, now));
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
  features: ProjectFeatures;
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
    .select((eb) => ["x.project_id", "p.visibility", "p.issues_access_level", "p.merge_requests_access_level", "p.repository_access_level", "p.snippets_access_level", eb.fn.max("x.level").as("level")])
    .groupBy(["x.project_id", "p.visibility", "p.issues_access_level", "p.merge_requests_access_level", "p.repository_access_level", "p.snippets_access_level"])
    .orderBy("x.project_id")
    .execute();
  return rows.map((row) => ({ projectId: Number(row.project_id), level: Number(row.level), visibility: row.visibility, features: featuresOf(row) }));
}

/** Whether a viewer with `level` can read a project of `visibility` (ports/store.ts project visibility). */
export function canRead(viewer: Viewer, visibility: string, level: number): boolean {
  if (visibility === "public") return true;
  if (viewer === null) return false;
  return viewer.admin || visibility === "internal" || level > 0;
}
