/**
 * 0040_merge_request_milestones: a merge request's milestone (reference `merge_requests.milestone_id`),
 * kept with its other settings (0019). A plain column like the issues' (0012): deleting the
 * milestone clears it in the store's milestone removal. The index serves the milestone's merge
 * request list and the `milestone` filter of merge request lists.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

export function mergeRequestMilestonesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_merge_request_settings").addColumn("milestone_id", "integer").execute();
      await db.schema.createIndex("forgekit_merge_request_settings_milestone").on("forgekit_merge_request_settings").columns(["milestone_id"]).execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_merge_request_settings_milestone", "forgekit_merge_request_settings");
      await db.schema.alterTable("forgekit_merge_request_settings").dropColumn("milestone_id").execute();
    },
  };
}
