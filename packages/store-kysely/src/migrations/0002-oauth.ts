/**
 * 0002_oauth: the OAuth provider's applications, authorization codes, token pairs and keys
 * (core ports/oauth-store.ts). Secrets are stored as hex SHA-256 digests under unique indexes;
 * deleting an application cascades to its codes and tokens.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const DIGEST = 64;
const TABLES = ["forgekit_oauth_tokens", "forgekit_oauth_codes", "forgekit_oauth_applications", "forgekit_oauth_keys"];

export function oauthMigration(traits: DialectTraits): Migration {
  const table = (db: AnyDb, name: string) => traits.tableOptions(db.schema.createTable(name)).addColumn("id", "integer", (column) => traits.idColumn(column));
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  // Byte-wise comparison (the folded-key type): client ids and digests are case-sensitive.
  const exact = (length: number) => traits.foldedType(length);
  return {
    async up(db: AnyDb) {
      await table(db, "forgekit_oauth_applications")
        .addColumn("uid", exact(128), (c) => c.notNull().unique())
        .addColumn("secret_digest", exact(DIGEST), (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("redirect_uris", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("confidential", bool, (c) => c.notNull())
        .addColumn("trusted", bool, (c) => c.notNull())
        .addColumn("ropc_enabled", bool, (c) => c.notNull())
        .addColumn("owner_id", "integer")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_oauth_applications_owner").on("forgekit_oauth_applications").columns(["owner_id", "id"]).execute();

      await table(db, "forgekit_oauth_codes")
        .addColumn("digest", exact(DIGEST), (c) => c.notNull().unique())
        .addColumn("family_id", exact(DIGEST), (c) => c.notNull())
        .addColumn("application_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_oauth_codes_application_fk", ["application_id"], "forgekit_oauth_applications", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("redirect_uri", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("code_challenge", "varchar(128)")
        .addColumn("nonce", "text")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("expires_at", ts, (c) => c.notNull())
        .addColumn("consumed_at", ts)
        .execute();
      await db.schema.createIndex("forgekit_oauth_codes_expires").on("forgekit_oauth_codes").columns(["expires_at"]).execute();
      await db.schema.createIndex("forgekit_oauth_codes_application").on("forgekit_oauth_codes").columns(["application_id"]).execute();

      await table(db, "forgekit_oauth_tokens")
        .addColumn("family_id", exact(DIGEST), (c) => c.notNull())
        .addColumn("application_id", "integer")
        .addForeignKeyConstraint("forgekit_oauth_tokens_application_fk", ["application_id"], "forgekit_oauth_applications", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("access_digest", exact(DIGEST), (c) => c.notNull().unique())
        .addColumn("refresh_digest", exact(DIGEST), (c) => c.unique())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("expires_in", "integer")
        .addColumn("expires_at", ts)
        .addColumn("refresh_expires_at", ts)
        .addColumn("family_created_at", ts, (c) => c.notNull())
        .addColumn("previous_id", "integer")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("revoked_at", ts)
        .addColumn("rotated_at", ts)
        .execute();
      await db.schema.createIndex("forgekit_oauth_tokens_family").on("forgekit_oauth_tokens").columns(["family_id", "id"]).execute();
      await db.schema.createIndex("forgekit_oauth_tokens_application").on("forgekit_oauth_tokens").columns(["application_id"]).execute();
      // No indexes for the cleanup task's time columns: every issue and rotation would pay for
      // them, while the periodic purge can afford a scan.

      await traits
        .tableOptions(db.schema.createTable("forgekit_oauth_keys"))
        .addColumn("kind", "varchar(32)", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      for (const name of TABLES) await db.schema.dropTable(name).execute();
    },
  };
}
