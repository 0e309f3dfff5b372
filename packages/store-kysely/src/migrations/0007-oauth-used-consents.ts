/**
 * 0007_oauth_used_consents: the consent-form tokens already posted (hex SHA-256 digest as the
 * primary key), so each token approves or denies one request once; the primary key is what makes
 * two concurrent posts of one token produce one code. Rows go after `expires_at` (OAuth cleanup).
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const DIGEST = 64;

export function oauthUsedConsentsMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await traits
        .tableOptions(db.schema.createTable("forgekit_oauth_used_consents"))
        // Byte-wise comparison (the folded-key type): digests are case-sensitive hex.
        .addColumn("digest", traits.foldedType(DIGEST), (c) => c.primaryKey())
        .addColumn("expires_at", traits.timestampType, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_oauth_used_consents_expires").on("forgekit_oauth_used_consents").column("expires_at").execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable("forgekit_oauth_used_consents").execute();
    },
  };
}
