/** SQL EventRepository: insert, feeds (sql/event-feeds.ts), audience changes and retention deletes. */
import { TOTAL_COUNT_LIMIT, type Event, type EventListFilter, type EventRepository, type OffsetPageRequest, type OffsetPageResult } from "@forgekit/core";
import { sql, type Selectable } from "kysely";
import type { EventsTable } from "../schema-activity.js";
import { authorFeed, authorizedProjects, canRead, ordered, projectPart, rankOf, type FeedQuery } from "../sql/event-feeds.js";
import { checkPage, offsetPage } from "../sql/pagination.js";
import { AUDIENCE_RANKS, eventRow, toEvent } from "./activity-rows.js";
import type { SqlContext } from "./context.js";
import { sqlMembers } from "./members.js";

/** Parts per UNION ALL statement (SQLite allows 500 compound terms). */
const PARTS_PER_STATEMENT = 100;

const EMPTY: OffsetPageResult<Event> = { items: [], total: 0, hasNext: false };

interface Part {
  projectId: number;
  rank: number;
}

const chunks = <T>(list: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

export function sqlEvents(ctx: SqlContext): EventRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<EventsTable>) => toEvent(row, t);
  const members = sqlMembers(ctx);

  /** The viewer's part of one project's events, or null when the viewer cannot read the project. */
  const partFor = async (filter: EventListFilter, projectId: number, known?: { level: number; visibility: string }): Promise<Part | null> => {
    const { viewer } = filter;
    let visibility = known?.visibility;
    if (visibility === undefined) {
      const project = await db.selectFrom("forgekit_projects").select("visibility").where("id", "=", projectId).executeTakeFirst();
      if (project === undefined) return null;
      visibility = project.visibility;
    }
    const level = viewer === null || viewer.admin ? 0 : (known?.level ?? (await members.projectAccessLevel(viewer.userId, projectId, filter.now)));
    return canRead(viewer, visibility, level) ? { projectId, rank: rankOf(viewer, level) } : null;
  };

  /** The rows of several parts merged in feed order, at most `limit` of them. */
  const mergedRows = async (filter: EventListFilter, parts: readonly Part[], limit: number): Promise<Event[]> => {
    const direction = filter.sort === "asc" ? 1 : -1;
    const rows: Event[] = [];
    for (const chunk of chunks(parts, PARTS_PER_STATEMENT)) {
      const subs = chunk.map((part, i) => db.selectFrom(ordered(projectPart(ctx, filter, part.projectId, part.rank), filter).limit(limit).as(`x${i}`)).selectAll());
      const union = subs.slice(1).reduce((all, sub) => all.unionAll(sub), subs[0] as (typeof subs)[number]);
      const dir = filter.sort === "asc" ? "asc" : "desc";
      const found = await db.selectFrom(union.as("u")).selectAll().orderBy("u.created_at", dir).orderBy("u.id", dir).limit(limit).execute();
      rows.push(...found.map((row) => map(row)));
    }
    return rows.sort((a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)).slice(0, limit);
  };

  /** How many rows the parts hold together, counted up to TOTAL_COUNT_LIMIT + 1. */
  const boundedCount = async (filter: EventListFilter, parts: readonly Part[]): Promise<number> => {
    let total = 0;
    for (const chunk of chunks(parts, PARTS_PER_STATEMENT)) {
      const subs = chunk.map((part) => projectPart(ctx, filter, part.projectId, part.rank).select(sql.lit(1).as("one")));
      const union = subs.slice(1).reduce((all, sub) => all.unionAll(sub), subs[0] as (typeof subs)[number]);
      const bounded = db.selectFrom(union.as("u")).select("u.one").limit(TOTAL_COUNT_LIMIT + 1 - total).as("b");
      const counted = await db.selectFrom(bounded).select((eb) => eb.fn.countAll<number | string | bigint>().as("n")).executeTakeFirstOrThrow();
      total += Number(counted.n);
      if (total > TOTAL_COUNT_LIMIT) break;
    }
    return total;
  };

  const listParts = async (filter: EventListFilter, parts: readonly Part[], page: OffsetPageRequest): Promise<OffsetPageResult<Event>> => {
    if (parts.length === 0) return EMPTY;
    const single = parts.length === 1 ? parts[0] : undefined;
    if (single !== undefined) return offsetPage(db, projectPart(ctx, filter, single.projectId, single.rank), (q) => ordered(q, filter), page, map);
    const skip = (page.page - 1) * page.perPage;
    const rows = await mergedRows(filter, parts, skip + page.perPage + 1);
    const items = rows.slice(skip, skip + page.perPage);
    const hasNext = rows.length > skip + page.perPage;
    const total = items.length > 0 && !hasNext ? skip + items.length : await boundedCount(filter, parts);
    return { items, total: total > TOTAL_COUNT_LIMIT ? null : total, hasNext };
  };

  return {
    async insert(input) {
      const id = await t.insert(db, "forgekit_events", eventRow(input, t));
      return { id, ...input, push: input.push === null ? null : { ...input.push }, note: input.note === null ? null : { ...input.note, createdAt: new Date(input.note.createdAt) }, createdAt: new Date(input.createdAt) };
    },
    async findById(id) {
      const row = await db.selectFrom("forgekit_events").selectAll().where("id", "=", id).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
    async list(filter, page) {
      checkPage(page);
      const { feed } = filter;
      switch (feed.kind) {
        case "author": {
          const query: FeedQuery = authorFeed(ctx, filter, feed.authorId);
          return offsetPage(db, query, (q) => ordered(q, filter), page, map);
        }
        case "project": {
          const part = await partFor(filter, feed.projectId);
          return listParts(filter, part === null ? [] : [part], page);
        }
        case "authorized": {
          const projects = await authorizedProjects(ctx, feed.userId, filter.now);
          const parts: Part[] = [];
          for (const project of projects) {
            // The user's own level is known; another viewer's is read per project.
            const known = filter.viewer?.userId === feed.userId ? { level: project.level, visibility: project.visibility } : undefined;
            const part = await partFor(filter, project.projectId, known);
            if (part !== null) parts.push(part);
          }
          return listParts(filter, parts, page);
        }
      }
    },
    async setAudience(targets, audience, audienceUserId) {
      let changed = 0;
      const byType = new Map<string, number[]>();
      for (const target of targets) byType.set(target.type, [...(byType.get(target.type) ?? []), target.id]);
      for (const [type, ids] of byType) {
        const result = await db
          .updateTable("forgekit_events")
          .set({ audience: AUDIENCE_RANKS.indexOf(audience), audience_user_id: audienceUserId })
          .where("target_type", "=", type)
          .where("target_id", "in", ids)
          .executeTakeFirst();
        changed += Number(result.numUpdatedRows);
      }
      return changed;
    },
    async deleteCreatedBefore(cutoff, limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      // Two statements, portable to MySQL (no LIMIT inside IN subqueries): the oldest ids, then those rows.
      const doomed = await db.selectFrom("forgekit_events").select("id").where("created_at", "<", t.toDate(cutoff)).orderBy("created_at").orderBy("id").limit(limit).execute();
      if (doomed.length === 0) return 0;
      const result = await db.deleteFrom("forgekit_events").where("id", "in", doomed.map((row) => row.id)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
