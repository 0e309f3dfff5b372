/**
 * 0039_user_last_activity: each user's last activity day (reference `users.last_activity_on`),
 * written at most once a day per user by authenticated API and git-over-HTTP requests and read by
 * `GET /user`, the administrators' user views and `GET /user/activities`. `YYYY-MM-DD` text like
 * the other calendar dates (0025, 0033), so every dialect compares days as text. Nullable:
 * existing users have no recorded day. The index serves `GET /user/activities` (users active since
 * a day, oldest day first).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

export function userLastActivityMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_users").addColumn("last_activity_on", "varchar(10)").execute();
      await db.schema.createIndex("forgekit_users_last_activity").on("forgekit_users").columns(["last_activity_on", "id"]).execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_users_last_activity", "forgekit_users");
      await db.schema.alterTable("forgekit_users").dropColumn("last_activity_on").execute();
    },
  };
}
