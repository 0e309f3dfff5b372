/**
 * The MySQL / MariaDB dialect forgekit runs Kysely with: Kysely's own, except for how it lists tables.
 *
 * Kysely's migrator finds its bookkeeping tables with `introspection.getTables()`, which joins
 * `information_schema.columns` to `information_schema.tables` filtered by `database()`. MariaDB does
 * not narrow that join to the current database: it opens the definition of every table of every
 * database on the server. Measured on MariaDB 10.11 with 300 databases of 60 tables: 0.75 s a call
 * (the migrator makes several per migration), against 9 ms for the tables alone. forgekit only asks
 * which tables exist, so this introspector reads `information_schema.tables` of the current database.
 */
import { MysqlDialect, MysqlIntrospector, sql, type DatabaseIntrospector, type DatabaseMetadata, type DatabaseMetadataOptions, type Kysely, type SchemaMetadata, type TableMetadata } from "kysely";

/** Lists schemas as Kysely does, and the current database's tables (with `columns` left empty: forgekit only asks which tables exist). */
export class MysqlTablesIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #kysely: MysqlIntrospector;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
    this.#kysely = new MysqlIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#kysely.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    // `show full tables` reads only the current database's directory (no other database is opened).
    const { rows } = await sql<Record<string, string>>`show full tables`.execute(this.#db);
    const internal = new Set(["kysely_migration", "kysely_migration_lock"]);
    const schema = (await sql<{ name: string }>`select database() as name`.execute(this.#db)).rows[0]?.name;
    return rows
      .map((row) => {
        const [name = "", type = ""] = Object.values(row);
        return { name, isView: type === "VIEW", ...(schema === undefined ? {} : { schema }), columns: [] };
      })
      .filter((table) => options.withInternalKyselyTables === true || !internal.has(table.name))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** Kysely's MySQL dialect with {@link MysqlTablesIntrospector}. */
export class ForgekitMysqlDialect extends MysqlDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new MysqlTablesIntrospector(db);
  }
}
