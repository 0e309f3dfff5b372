/**
 * The shape of forgekit's introspectors: schemas as Kysely's own introspector lists them, tables
 * from one cheap query of the dialect's (with `columns` left empty: forgekit, like Kysely's
 * migrator, only asks which tables exist). See postgres-introspector.ts and mysql-introspector.ts.
 */
import type { DatabaseIntrospector, DatabaseMetadata, DatabaseMetadataOptions, SchemaMetadata, TableMetadata } from "kysely";

/** Kysely's migration bookkeeping tables, left out unless `withInternalKyselyTables`. */
const KYSELY_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

export abstract class TablesIntrospector implements DatabaseIntrospector {
  readonly #schemas: DatabaseIntrospector;

  protected constructor(schemas: DatabaseIntrospector) {
    this.#schemas = schemas;
  }

  /** Every table and view the connection sees, Kysely's own included. */
  protected abstract listTables(): Promise<TableMetadata[]>;

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    return (await this.listTables()).filter((table) => options.withInternalKyselyTables === true || !KYSELY_TABLES.has(table.name));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
