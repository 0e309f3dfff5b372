/**
 * 0011_access_token_family: each access token made by rotation names the token it replaced
 * (`previous_token_id`), so a rotation attempt on an already revoked token — a sign that the token
 * leaked and someone else rotated it first — revokes every token descended from it (reference
 * `RotateService` token families). Existing tokens have no predecessor.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";
import { dropIndexOf } from "./drop-index.js";

export function accessTokenFamilyMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_access_tokens").addColumn("previous_token_id", "integer").execute();
      await db.schema.createIndex("forgekit_access_tokens_previous").on("forgekit_access_tokens").column("previous_token_id").execute();
    },
    async down(db: AnyDb) {
      await dropIndexOf(db, traits, "forgekit_access_tokens_previous", "forgekit_access_tokens");
      await db.schema.alterTable("forgekit_access_tokens").dropColumn("previous_token_id").execute();
    },
  };
}
