/**
 * SQL EventRepository: insert, feeds (sql/event-feeds.ts), audience changes and retention deletes.
 * Every write keeps the event counters (event-counts.ts) in its own transaction; a feed whose full
 * page needs a total reads them first, and counts (bounded) only when they can neither give the
 * exact total nor tell it is past TOTAL_COUNT_LIMIT.
 */
import type { Event, EventListFilter, EventRepository, OffsetPageRequest, OffsetPageResult, ProjectFeature, ProjectFeatures } from "@forgekit/core";
import { TOTAL_COUNT_LIMIT } from "@forgekit/core/internal";
import { sql, type Insertable, type Selectable, type SelectQueryBuilder } from "kysely";
import type { EventsTable } from "../schema-activity.js";
import type { Database } from "../schema.js";
import { authorFeed, authorizedProjects, canRead, featuresOf, hiddenFeatures, ordered, projectPart, rankOf, type FeedQuery } from "../sql/event-feeds.js";
import { executeCompiled } from "../sql/compiled.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { AUDIENCE_RANKS, eventRow, toEvent } from "./activity-rows.js";
import { atomic, type SqlContext } from "./context.js";
import { authorCount, countEvents, projectsCount, type CountedEvent } from "./event-counts.js";
import { sqlMembers } from "./members.js";

/** Parts per UNION ALL statement (SQLite allows 500 compound terms). */
const PARTS_PER_STATEMENT = 100;

const EMPTY: OffsetPageResult<Event> = { items: [], total: 0, hasNext: false };

interface Part {
  projectId: number;
  rank: number;
  /** The project features whose events the viewer may not see. */
  hidden: ProjectFeature[];
}

/** Counters that cannot tell: the feed counts (its hidden events are in the counters). */
const UNCOUNTED = () => Promise.resolve({ atLeast: 0, exact: false });

const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** An event row's columns in a fixed order (the compiled insert's parameter order). */
const EVENT_COLUMNS = ["project_id", "author_id", "action", "target_type", "target_id", "target_iid", "target_title", "audience", "audience_user_id", "payload", "created_at"] as const;

/**
 * Inserts one event row by a statement compiled once per store (sql/compiled.ts): imports write an
 * event per record, and building the Kysely insert each time was a large part of their garbage.
 */
async function insertRow(tx: SqlContext, row: Insertable<EventsTable>): Promise<number> {
  const mysql = tx.traits.name === "mysql";
  const result = await executeCompiled<{ id: number | string | bigint }>(tx, "events.insert", EVENT_COLUMNS.map((column) => row[column] ?? null), (arg) => {
    const insert = tx.db.insertInto("forgekit_events").values(Object.fromEntries(EVENT_COLUMNS.map((column, i) => [column, arg(i)])) as never);
    return mysql ? insert : insert.returning("id");
  });
  const id = mysql ? result.insertId : result.rows[0]?.id;
  if (id === undefined) throw new Error("the event insert returned no id");
  return Number(id);
}

export function sqlEvents(ctx: SqlContext): EventRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<EventsTable>) => toEvent(row, t);
  const counted = (row: Pick<Selectable<EventsTable>, "project_id" | "author_id" | "action" | "target_type" | "audience" | "created_at">): CountedEvent => ({
    projectId: row.project_id === null ? null : Number(row.project_id),
    authorId: Number(row.author_id),
    action: row.action,
    targetType: row.target_type,
    audience: Number(row.audience),
    createdAtMs: t.fromDate(row.created_at).getTime(),
  });
  const COUNTED_COLUMNS = ["project_id", "author_id", "action", "target_type", "audience", "created_at"] as const;

  /** The total the counters settle (exact, or beyond the limit), or null when only counting can tell. */
  const settled = async (counts: Promise<{ atLeast: number; exact: boolean }>): Promise<number | null> => {
    const { atLeast, exact } = await counts;
    return exact || atLeast > TOTAL_COUNT_LIMIT ? atLeast : null;
  };

  /** One page; when it is full (or past the end) the total, from the counters or counted. */
  const page = async (query: FeedQuery, filter: EventListFilter, request: OffsetPageRequest, counts: () => Promise<{ atLeast: number; exact: boolean }>): Promise<OffsetPageResult<Event>> =>
    offsetPage(db, query, (q) => ordered(q, filter), request, map, () => settled(counts()));
  const members = sqlMembers(ctx);

  /** The viewer's part of one project's events, or null when the viewer cannot read the project. */
  const partFor = async (filter: EventListFilter, projectId: number, known?: { level?: number; visibility?: string | undefined; features?: ProjectFeatures | undefined }): Promise<Part | null> => {
    const { viewer } = filter;
    let visibility = known?.visibility;
    let features = known?.features;
    if (visibility === undefined || features === undefined) {
      const project = await db
        .selectFrom("forgekit_projects")
        .select(["visibility", "issues_access_level", "merge_requests_access_level", "repository_access_level", "snippets_access_level"])
        .where("id", "=", projectId)
        .executeTakeFirst();
      if (project === undefined) return null;
      visibility = project.visibility;
      features = featuresOf(project);
    }
    const level = viewer === null || viewer.admin ? 0 : (known?.level ?? (await members.projectAccessLevel(viewer.userId, projectId, filter.now)));
    return canRead(viewer, visibility, level) ? { projectId, rank: rankOf(viewer, level), hidden: hiddenFeatures(viewer, { visibility, features }, level) } : null;
  };

  /** Whether some project has a feature not open to everyone (author feeds then count instead of reading the counters). */
  const anyRestricted = async (): Promise<boolean> => {
    const row = await db
      .selectFrom("forgekit_projects")
      .select("id")
      .where((eb) => eb.or([eb("issues_access_level", "<", 20), eb("merge_requests_access_level", "<", 20), eb("repository_access_level", "<", 20), eb("snippets_access_level", "<", 20)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  };

  /**
   * One page of several parts merged in feed order, and whether more follow. Each part reads only
   * keys (id, created_at) from its covering index, at most as many as the page can need; only the
   * page's rows are then read whole — in the same statement when the parts fit one statement.
   */
  const mergedPage = async (filter: EventListFilter, parts: readonly Part[], skip: number, perPage: number): Promise<{ items: Event[]; hasNext: boolean }> => {
    const dir = filter.sort === "asc" ? "asc" : "desc";
    const limit = skip + perPage + 1;
    const keysOf = (chunk: readonly Part[]) => {
      const subs = chunk.map((part, i) =>
        db.selectFrom(projectPart(ctx, filter, part.projectId, part.rank, part.hidden).select(["e.id", "e.created_at"]).orderBy("e.created_at", dir).orderBy("e.id", dir).limit(limit).as(`x${i}`)).selectAll(),
      );
      return subs.slice(1).reduce((all, sub) => all.unionAll(sub), subs[0] as (typeof subs)[number]);
    };
    const whole = (ids: SelectQueryBuilder<Database, "forgekit_events", { id: number }>) =>
      db.selectFrom("forgekit_events as e").innerJoin(ids.as("k"), "k.id", "e.id").selectAll("e").orderBy("e.created_at", dir).orderBy("e.id", dir);
    if (parts.length <= PARTS_PER_STATEMENT) {
      const page = db.selectFrom(keysOf(parts).as("u")).select("u.id").orderBy("u.created_at", dir).orderBy("u.id", dir).limit(perPage + 1).offset(skip);
      const rows = (await whole(page as never).execute()).map((row) => map(row));
      return { items: rows.slice(0, perPage), hasNext: rows.length > perPage };
    }
    const direction = dir === "asc" ? 1 : -1;
    const keys: { id: number; at: number }[] = [];
    for (const chunk of chunks(parts, PARTS_PER_STATEMENT)) {
      const found = await db.selectFrom(keysOf(chunk).as("u")).selectAll().orderBy("u.created_at", dir).orderBy("u.id", dir).limit(limit).execute();
      keys.push(...found.map((row) => ({ id: Number(row.id), at: t.fromDate(row.created_at).getTime() })));
    }
    keys.sort((a, b) => direction * (a.at - b.at || a.id - b.id));
    const pageIds = keys.slice(skip, skip + perPage).map((key) => key.id);
    const items = pageIds.length === 0 ? [] : (await whole(db.selectFrom("forgekit_events").select("id").where("id", "in", pageIds) as never).execute()).map((row) => map(row));
    return { items, hasNext: keys.length > skip + perPage };
  };

  /** How many rows the parts hold together, counted up to TOTAL_COUNT_LIMIT + 1. */
  const boundedCount = async (filter: EventListFilter, parts: readonly Part[]): Promise<number> => {
    let total = 0;
    for (const chunk of chunks(parts, PARTS_PER_STATEMENT)) {
      const subs = chunk.map((part) => projectPart(ctx, filter, part.projectId, part.rank, part.hidden).select(sql.lit(1).as("one")));
      const union = subs.slice(1).reduce((all, sub) => all.unionAll(sub), subs[0] as (typeof subs)[number]);
      const bounded = db.selectFrom(union.as("u")).select("u.one").limit(TOTAL_COUNT_LIMIT + 1 - total).as("b");
      const counted = await db.selectFrom(bounded).select((eb) => eb.fn.countAll<number | string | bigint>().as("n")).executeTakeFirstOrThrow();
      total += Number(counted.n);
      if (total > TOTAL_COUNT_LIMIT) break;
    }
    return total;
  };

  const listParts = async (filter: EventListFilter, parts: readonly Part[], request: OffsetPageRequest): Promise<OffsetPageResult<Event>> => {
    if (parts.length === 0) return EMPTY;
    const single = parts.length === 1 ? parts[0] : undefined;
    const counts = parts.some((part) => part.hidden.length > 0) ? UNCOUNTED : () => projectsCount(db, filter, parts);
    if (single !== undefined) return page(projectPart(ctx, filter, single.projectId, single.rank, single.hidden), filter, request, counts);
    const skip = (request.page - 1) * request.perPage;
    const { items, hasNext } = await mergedPage(filter, parts, skip, request.perPage);
    const total = items.length > 0 && !hasNext ? skip + items.length : ((await settled(counts())) ?? (await boundedCount(filter, parts)));
    return { items, total: total > TOTAL_COUNT_LIMIT ? null : total, hasNext };
  };

  return {
    async insert(input) {
      const row = eventRow(input, t);
      const id = await atomic(ctx, async (tx) => {
        const inserted = await insertRow(tx, row);
        await countEvents(tx, [{ projectId: input.projectId, authorId: input.authorId, action: input.action, targetType: input.targetType, audience: Number(row.audience), createdAtMs: input.createdAt.getTime() }], 1);
        return inserted;
      });
      return { id, ...input, push: input.push === null ? null : { ...input.push }, note: input.note === null ? null : { ...input.note, createdAt: new Date(input.note.createdAt) }, createdAt: new Date(input.createdAt) };
    },
    async findById(id) {
      const row = await db.selectFrom("forgekit_events").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async list(filter, request) {
      checkPage(request);
      const { feed } = filter;
      switch (feed.kind) {
        case "author": {
          const query: FeedQuery = authorFeed(ctx, filter, feed.authorId);
          return page(query, filter, request, (await anyRestricted()) ? UNCOUNTED : () => authorCount(db, filter, feed.authorId));
        }
        case "project": {
          const part = await partFor(filter, feed.projectId, { visibility: feed.visibility, features: feed.features });
          return listParts(filter, part === null ? [] : [part], request);
        }
        case "authorized": {
          const projects = await authorizedProjects(ctx, feed.userId, filter.now);
          const parts: Part[] = [];
          for (const project of projects) {
            // The user's own level is known; another viewer's is read per project.
            const known = filter.viewer?.userId === feed.userId ? { level: project.level, visibility: project.visibility, features: project.features } : undefined;
            const part = await partFor(filter, project.projectId, known);
            if (part !== null) parts.push(part);
          }
          return listParts(filter, parts, request);
        }
      }
    },
    setAudience: (targets, audience, audienceUserId) =>
      atomic(ctx, async (tx) => {
        const rank = AUDIENCE_RANKS.indexOf(audience);
        let changed = 0;
        const byType = new Map<string, number[]>();
        for (const target of targets) byType.set(target.type, [...(byType.get(target.type) ?? []), target.id]);
        for (const [type, ids] of byType) {
          // The events changing rank move between the counters' audiences.
          const moving = (await tx.db.selectFrom("forgekit_events").select(COUNTED_COLUMNS).where("target_type", "=", type).where("target_id", "in", ids).where("audience", "<>", rank).execute()).map(counted);
          await countEvents(tx, moving, -1);
          await countEvents(tx, moving.map((e) => ({ ...e, audience: rank })), 1);
          const result = await tx.db
            .updateTable("forgekit_events")
            .set({ audience: rank, audience_user_id: audienceUserId })
            .where("target_type", "=", type)
            .where("target_id", "in", ids)
            .executeTakeFirst();
          changed += Number(result.numUpdatedRows);
        }
        return changed;
      }),
    async deleteCreatedBefore(cutoff, limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      // Two statements, portable to MySQL (no LIMIT inside IN subqueries): the oldest ids, then those rows.
      return atomic(ctx, async (tx) => {
        const oldest = tx.db.selectFrom("forgekit_events").select(["id", ...COUNTED_COLUMNS]).where("created_at", "<", t.toDate(cutoff)).orderBy("created_at").orderBy("id").limit(limit);
        // Locked until this transaction ends, so a concurrent pruner skips them (SQLite serialises writers instead).
        const doomed = await (t.supportsForUpdate ? oldest.forUpdate() : oldest).execute();
        if (doomed.length === 0) return 0;
        const result = await tx.db.deleteFrom("forgekit_events").where("id", "in", doomed.map((row) => row.id)).executeTakeFirst();
        // The rows are this transaction's (locked, or SQLite's single writer): anything else would leave the counters too high.
        if (Number(result.numDeletedRows) !== doomed.length) throw new Error("events changed while pruning");
        await countEvents(tx, doomed.map(counted), -1);
        return Number(result.numDeletedRows);
      });
    },
  };
}
