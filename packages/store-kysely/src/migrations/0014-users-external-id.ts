/**
 * 0014_users_external_id: the host's own id for a user (`fk.users.sync`), unique, so a host with
 * its own user table needs no map from its ids to forgekit's. Existing users have none.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

export function usersExternalIdMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_users").addColumn("external_id", "varchar(255)").execute();
      // NULLs never collide in a unique index on SQLite, PostgreSQL and MySQL: unsynced users are many.
      await db.schema.createIndex("forgekit_users_external_id").on("forgekit_users").column("external_id").unique().execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_users_external_id", "forgekit_users");
      await db.schema.alterTable("forgekit_users").dropColumn("external_id").execute();
    },
  };
}
