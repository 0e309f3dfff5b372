/**
 * 0037_issue_discussion_locks: issues get `discussion_locked` (reference `Issue#discussion_locked`,
 * set by `PUT /projects/:id/issues/:issue_iid`). Nullable like the reference's column: an issue
 * whose lock was never set shows `null`, one unlocked again `false`.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

export function issueDiscussionLocksMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_issues").addColumn("discussion_locked", traits.booleanType).execute();
    },
    async down(db: AnyDb) {
      await db.schema.alterTable("forgekit_issues").dropColumn("discussion_locked").execute();
    },
  };
}
