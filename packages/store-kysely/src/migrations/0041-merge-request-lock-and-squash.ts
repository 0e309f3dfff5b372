/**
 * 0041_merge_request_lock_and_squash: what more a merge request keeps with its settings (0019,
 * 0040): whether only project members may comment (reference `merge_requests.discussion_locked`,
 * null until first set, as the issues' of 0037), whether it is squashed when merged (`squash`, null
 * counting as false) and the squash commit its merge made (`squash_commit_sha`).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function mergeRequestLockAndSquashMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_merge_request_settings").addColumn("discussion_locked", traits.booleanType).execute();
      await db.schema.alterTable("forgekit_merge_request_settings").addColumn("squash", traits.booleanType).execute();
      await db.schema.alterTable("forgekit_merge_request_settings").addColumn("squash_commit_sha", "varchar(64)").execute();
    },
    async down(db: AnyDb) {
      for (const column of ["squash_commit_sha", "squash", "discussion_locked"]) await db.schema.alterTable("forgekit_merge_request_settings").dropColumn(column).execute();
    },
  };
}
