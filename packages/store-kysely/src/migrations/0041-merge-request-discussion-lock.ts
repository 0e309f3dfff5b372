/**
 * 0041_merge_request_discussion_lock: whether only project members may comment on a merge request
 * (reference `merge_requests.discussion_locked`), kept with its other settings (0019, 0040). Null
 * until first set, as the reference's column (and the issues' of 0037) is.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function mergeRequestDiscussionLockMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_merge_request_settings").addColumn("discussion_locked", traits.booleanType).execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_merge_request_settings").dropColumn("discussion_locked").execute();
    },
  };
}
