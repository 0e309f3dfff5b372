/**
 * 0021_project_features: what the project entity showed as constants becomes stored state (issue
 * 19 §1). The access levels of the features forgekit has (issues, merge requests, repository,
 * snippets) as the reference's numbers (0 disabled, 10 private, 20 enabled; existing projects keep
 * them enabled, as they worked), whether the repository has no branch (`repository_empty`; `null`
 * for existing rows: read from the repository once, then kept), and the owner of each personal
 * project as its Owner member (reference `Projects::CreateService` adds the namespace owner), so
 * `permissions.project_access` and `/members/all` show them.
 */
import { sql, type Migration } from "kysely";
import type { AnyDb, DialectTraits } from "../dialects/traits.js";

const FEATURES = ["issues_access_level", "merge_requests_access_level", "repository_access_level", "snippets_access_level"] as const;

export function projectFeaturesMigration(traits: DialectTraits): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("forgekit_projects").addColumn("repository_empty", traits.booleanType).execute();
      // The default branch's root README (`''` none; `null` not known: learnt when the project is next read).
      await db.schema.alterTable("forgekit_projects").addColumn("readme_path", "varchar(255)").execute();
      // One ALTER per column: SQLite adds one column per statement.
      for (const column of FEATURES) {
        await db.schema.alterTable("forgekit_projects").addColumn(column, "integer", (c) => c.notNull().defaultTo(20)).execute();
      }
      // Built with the query builder, not raw SQL: the schema plugin (PostgreSQL schemas) qualifies its table names.
      const owners = db
        .selectFrom("forgekit_projects as p")
        .innerJoin("forgekit_namespaces as n", "n.id", "p.namespace_id")
        .select([sql.lit("project").as("source_type"), "p.id as source_id", "n.owner_id as user_id", sql.lit(50).as("access_level"), sql.lit(null).as("expires_at"), "p.created_at as created_at"])
        .where("n.kind", "=", "user")
        .where("n.owner_id", "is not", null)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("forgekit_members as m")
                .select(sql.lit(1).as("one"))
                .where("m.source_type", "=", "project")
                .whereRef("m.source_id", "=", "p.id")
                .whereRef("m.user_id", "=", "n.owner_id"),
            ),
          ),
        );
      await db.insertInto("forgekit_members").columns(["source_type", "source_id", "user_id", "access_level", "expires_at", "created_at"]).expression(owners).execute();
    },
    async down(db: AnyDb) {
      for (const column of [...FEATURES].reverse()) await db.schema.alterTable("forgekit_projects").dropColumn(column).execute();
      await db.schema.alterTable("forgekit_projects").dropColumn("readme_path").execute();
      await db.schema.alterTable("forgekit_projects").dropColumn("repository_empty").execute();
    },
  };
}
