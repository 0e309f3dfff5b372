/**
 * 0027_note_discussions: notes become discussions (reference `notes.discussion_id`, `type`,
 * `position`, `commit_id`, `resolved_at`, `resolved_by_id`). Every note gets a discussion id of
 * 40 hex digits; the notes there before keep one of their own (individual notes), derived from
 * their id so that a rerun after an interruption gives the same ids. Positions are JSON text.
 * `resolved_by_id` is cleared by the store when the user is removed (no foreign key: SQLite and
 * MySQL cannot add one to an existing table in one portable statement).
 */
import { createHash } from "node:crypto";
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

const BATCH = 500;

/** The discussion id of a note that existed before discussions (stable across reruns). */
export const legacyDiscussionId = (noteId: number): string => createHash("sha1").update(`forgekit-note-${noteId}`).digest("hex");

export function noteDiscussionsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_notes").addColumn("discussion_id", "varchar(40)").execute();
      await db.schema.alterTable("forgekit_notes").addColumn("type", "varchar(16)").execute();
      await db.schema.alterTable("forgekit_notes").addColumn("position", "text").execute();
      await db.schema.alterTable("forgekit_notes").addColumn("commit_id", "varchar(64)").execute();
      await db.schema.alterTable("forgekit_notes").addColumn("resolved_at", traits.timestampType).execute();
      await db.schema.alterTable("forgekit_notes").addColumn("resolved_by_id", "integer").execute();
      for (;;) {
        const rows = await db.selectFrom("forgekit_notes").select("id").where("discussion_id", "is", null).orderBy("id").limit(BATCH).execute();
        for (const row of rows) {
          const id = Number(row.id);
          await db.updateTable("forgekit_notes").set({ discussion_id: legacyDiscussionId(id) }).where("id", "=", id).execute();
        }
        if (rows.length < BATCH) break;
      }
      await db.schema.createIndex("forgekit_notes_discussion").on("forgekit_notes").columns(["noteable_type", "noteable_id", "discussion_id"]).execute();
      await db.schema.createIndex("forgekit_notes_resolved_by").on("forgekit_notes").columns(["resolved_by_id"]).execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_notes_resolved_by", "forgekit_notes");
      await dropIndexOf(db, traits, "forgekit_notes_discussion", "forgekit_notes");
      for (const column of ["resolved_by_id", "resolved_at", "commit_id", "position", "type", "discussion_id"]) {
        await db.schema.alterTable("forgekit_notes").dropColumn(column).execute();
      }
    },
  };
}
