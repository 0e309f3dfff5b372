/**
 * 0001_accounts: users, emails, namespaces (with their ancestor closure), projects, members,
 * access tokens and settings. Case-insensitive uniqueness lives in folded `*_lower` columns with
 * unique indexes, so every dialect enforces it the same way.
 */
import type { Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const NAME = 255;
const FULL_PATH = 512;

export function accountsMigration(traits: DialectTraits): Migration {
  const table = (db: AnyDb, name: string) => traits.tableOptions(db.schema.createTable(name)).addColumn("id", "integer", (column) => traits.idColumn(column));
  const ts = traits.timestampType;
  const bool = traits.booleanType;
  return {
    async up(db: AnyDb) {
      await table(db, "forgekit_users")
        .addColumn("username", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("username_lower", traits.foldedType(NAME), (c) => c.notNull().unique())
        .addColumn("name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("name_lower", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("admin", bool, (c) => c.notNull())
        .addColumn("bot", "varchar(16)")
        .addColumn("two_factor_enabled", bool, (c) => c.notNull())
        .addColumn("private_profile", bool, (c) => c.notNull())
        .addColumn("avatar_url", "text")
        .addColumn("password_hash", "text")
        .addColumn("namespace_id", "integer")
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_users_state").on("forgekit_users").columns(["state", "id"]).execute();

      await table(db, "forgekit_emails")
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_emails_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("email", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("email_lower", traits.foldedType(NAME), (c) => c.notNull().unique())
        .addColumn("is_primary", bool, (c) => c.notNull())
        .addColumn("confirmed_at", ts)
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_emails_user").on("forgekit_emails").columns(["user_id", "is_primary"]).execute();

      await table(db, "forgekit_namespaces")
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("path", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("path_lower", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("name_lower", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("full_path", `varchar(${FULL_PATH})`, (c) => c.notNull())
        .addColumn("full_path_lower", traits.foldedType(FULL_PATH), (c) => c.notNull().unique())
        .addColumn("parent_id", "integer")
        .addColumn("owner_id", "integer")
        .addForeignKeyConstraint("forgekit_namespaces_parent_fk", ["parent_id"], "forgekit_namespaces", ["id"])
        .addForeignKeyConstraint("forgekit_namespaces_owner_fk", ["owner_id"], "forgekit_users", ["id"])
        .addColumn("visibility", "varchar(16)", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_namespaces_parent").on("forgekit_namespaces").columns(["parent_id"]).execute();
      await db.schema.createIndex("forgekit_namespaces_owner").on("forgekit_namespaces").columns(["owner_id"]).execute();
      await db.schema.createIndex("forgekit_namespaces_kind_name").on("forgekit_namespaces").columns(["kind", "name_lower", "id"]).execute();
      await db.schema.createIndex("forgekit_namespaces_kind_path").on("forgekit_namespaces").columns(["kind", "path_lower", "id"]).execute();

      await traits
        .tableOptions(db.schema.createTable("forgekit_namespace_ancestors"))
        .addColumn("namespace_id", "integer", (c) => c.notNull())
        .addColumn("ancestor_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_namespace_ancestors_self_fk", ["namespace_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .addForeignKeyConstraint("forgekit_namespace_ancestors_up_fk", ["ancestor_id"], "forgekit_namespaces", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("depth", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("forgekit_namespace_ancestors_pk", ["namespace_id", "ancestor_id"])
        .execute();
      await db.schema.createIndex("forgekit_namespace_ancestors_up").on("forgekit_namespace_ancestors").columns(["ancestor_id", "namespace_id"]).execute();

      await table(db, "forgekit_projects")
        .addColumn("namespace_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_projects_namespace_fk", ["namespace_id"], "forgekit_namespaces", ["id"])
        .addColumn("path", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("path_lower", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("name_lower", traits.foldedType(NAME), (c) => c.notNull())
        .addColumn("full_path", `varchar(${FULL_PATH})`, (c) => c.notNull())
        .addColumn("full_path_lower", traits.foldedType(FULL_PATH), (c) => c.notNull().unique())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("visibility", "varchar(16)", (c) => c.notNull())
        .addColumn("creator_id", "integer")
        .addColumn("repository_storage", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("repository_read_only", bool, (c) => c.notNull())
        .addColumn("default_branch", `varchar(${NAME})`)
        .addColumn("created_at", ts, (c) => c.notNull())
        .addColumn("updated_at", ts, (c) => c.notNull())
        .addColumn("last_activity_at", ts, (c) => c.notNull())
        .execute();
      const projectIndex = (name: string, columns: string[]) => db.schema.createIndex(`forgekit_projects_${name}`).on("forgekit_projects").columns(columns).execute();
      await projectIndex("namespace", ["namespace_id", "id"]);
      await projectIndex("visibility", ["visibility", "id"]);
      await projectIndex("storage", ["repository_storage", "id"]);
      await projectIndex("created", ["created_at", "id"]);
      await projectIndex("updated", ["updated_at", "id"]);
      await projectIndex("activity", ["last_activity_at", "id"]);
      await projectIndex("name", ["name_lower", "id"]);
      await projectIndex("path", ["path_lower", "id"]);

      await table(db, "forgekit_members")
        .addColumn("source_type", "varchar(16)", (c) => c.notNull())
        .addColumn("source_id", "integer", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_members_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("access_level", "integer", (c) => c.notNull())
        .addColumn("expires_at", ts)
        .addColumn("created_at", ts, (c) => c.notNull())
        .addUniqueConstraint("forgekit_members_source_user", ["source_type", "source_id", "user_id"])
        .execute();
      await db.schema.createIndex("forgekit_members_user").on("forgekit_members").columns(["user_id", "source_type", "source_id"]).execute();

      await table(db, "forgekit_access_tokens")
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addForeignKeyConstraint("forgekit_access_tokens_user_fk", ["user_id"], "forgekit_users", ["id"], (fk) => fk.onDelete("cascade"))
        .addColumn("name", `varchar(${NAME})`, (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("digest", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("expires_at", ts)
        .addColumn("revoked", bool, (c) => c.notNull())
        .addColumn("resource_id", "integer")
        .addColumn("last_used_at", ts)
        .addColumn("created_at", ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("forgekit_access_tokens_user").on("forgekit_access_tokens").columns(["user_id", "id"]).execute();
      await db.schema.createIndex("forgekit_access_tokens_resource").on("forgekit_access_tokens").columns(["resource_id", "id"]).execute();

      await traits
        .tableOptions(db.schema.createTable("forgekit_settings"))
        .addColumn("name", `varchar(${NAME})`, (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      for (const name of ["forgekit_settings", "forgekit_access_tokens", "forgekit_members", "forgekit_projects", "forgekit_namespace_ancestors", "forgekit_namespaces", "forgekit_emails", "forgekit_users"]) {
        await db.schema.dropTable(name).execute();
      }
    },
  };
}
