/** SQL {@link DiscussionRepository}: the notes table grouped by `discussion_id`. */
import type { DiscussionRecord, DiscussionRepository, Note } from "@forgekit/core";
import { sql } from "kysely";
import { offsetPage } from "../sql/pagination.js";
import { toNote } from "./activity-rows.js";
import type { SqlContext } from "./context.js";

export function sqlDiscussions(ctx: SqlContext): DiscussionRepository {
  const { db, traits: t } = ctx;
  const notesOn = (noteableType: string, noteableId: number) => db.selectFrom("forgekit_notes").where("noteable_type", "=", noteableType).where("noteable_id", "=", noteableId);
  return {
    async page(noteableType, noteableId, page) {
      // One row per discussion with its first note's id; the page is cut there, then its notes read.
      const discussions = notesOn(noteableType, noteableId)
        .select("discussion_id")
        .select((eb) => eb.fn.min<number>("id").as("first_id"))
        .groupBy("discussion_id")
        .as("d");
      const ids = await offsetPage(db, db.selectFrom(discussions), (q) => q.select(["d.discussion_id", "d.first_id"]).orderBy("d.first_id", "asc"), page, (row) => row.discussion_id ?? "");
      if (ids.items.length === 0) return { ...ids, items: [] };
      const rows = await notesOn(noteableType, noteableId).selectAll().where("discussion_id", "in", ids.items).orderBy("id", "asc").execute();
      const grouped = new Map<string, Note[]>(ids.items.map((id) => [id, []]));
      for (const row of rows) grouped.get(row.discussion_id ?? "")?.push(toNote(row, t));
      const items: DiscussionRecord[] = [...grouped].map(([id, notes]) => ({ id, notes }));
      return { ...ids, items };
    },
    async notesOf(noteableType, noteableId, discussionId) {
      const rows = await notesOn(noteableType, noteableId).selectAll().where("discussion_id", "=", discussionId).orderBy("id", "asc").execute();
      return rows.map((row) => toNote(row, t));
    },
    async setType(noteId, type) {
      const done = await db.updateTable("forgekit_notes").set({ type }).where("id", "=", noteId).executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },
    async setResolved(noteIds, resolution) {
      if (noteIds.length === 0) return 0;
      const query = db.updateTable("forgekit_notes").where("id", "in", [...noteIds]);
      const done =
        resolution === null
          ? await query.set({ resolved_at: null, resolved_by_id: null }).where("resolved_at", "is not", null).executeTakeFirst()
          : await query.set({ resolved_at: t.toDate(resolution.at), resolved_by_id: resolution.byId }).where("resolved_at", "is", null).executeTakeFirst();
      return Number(done.numUpdatedRows);
    },
    async countUnresolved(noteableType, noteableId) {
      // Reference `ResolvableNote#resolvable?`: typed user notes on a merge request.
      if (noteableType !== "MergeRequest") return 0;
      const row = await notesOn(noteableType, noteableId)
        .where("type", "is not", null)
        .where("system", "=", t.toBool(false))
        .where("resolved_at", "is", null)
        .select(sql<number | string | bigint>`count(*)`.as("n"))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
