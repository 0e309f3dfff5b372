/**
 * The PostgreSQL dialect forgekit runs Kysely with: Kysely's own, except for how it lists tables.
 *
 * Kysely's migrator finds its bookkeeping tables with `introspection.getTables()`, whose catalog query
 * checks `has_schema_privilege(<schema name>, 'USAGE')` and `pg_get_serial_sequence(<name>)` for every
 * column of every table in the database. Both look the schema up by name, so the query fails with
 * `3F000` (invalid schema name) whenever any other session drops a schema while it runs (schema-per-
 * tenant hosts, parallel test runs), and it costs more the more schemas the database holds. This
 * introspector lists tables by oid instead: it cannot hit a concurrently dropped schema, and it reads
 * one row per table.
 */
import { PostgresDialect, PostgresIntrospector, sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from "kysely";
import { TablesIntrospector } from "./tables-introspector.js";

/** Every table and view, found by oid (no schema looked up by name). */
export class PostgresCatalogIntrospector extends TablesIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    super(new PostgresIntrospector(db));
    this.#db = db;
  }

  protected async listTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ns.nspname !~ '^pg_' and ns.nspname <> 'information_schema'
        and has_schema_privilege(ns.oid, 'USAGE')
      order by ns.nspname, c.relname`.execute(this.#db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === "v", columns: [] }));
  }
}

/** Kysely's PostgreSQL dialect with {@link PostgresCatalogIntrospector}. */
export class ForgekitPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresCatalogIntrospector(db);
  }
}
