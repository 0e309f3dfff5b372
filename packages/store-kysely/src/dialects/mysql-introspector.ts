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
import { MysqlDialect, MysqlIntrospector, sql, type DatabaseIntrospector, type Kysely, type TableMetadata } from "kysely";
import { TablesIntrospector } from "./tables-introspector.js";

/** The current database's tables, from `information_schema.tables` alone. */
export class MysqlTablesIntrospector extends TablesIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    super(new MysqlIntrospector(db));
    this.#db = db;
  }

  protected async listTables(): Promise<TableMetadata[]> {
    // Narrowed to the current database without a join: no other database's tables are opened.
    const { rows } = await sql<{ name: string; schema: string; type: string }>`
      select table_name as name, table_schema as \`schema\`, table_type as type
      from information_schema.tables where table_schema = database()`.execute(this.#db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.type === "VIEW", columns: [] })).sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** Kysely's MySQL dialect with {@link MysqlTablesIntrospector}. */
export class ForgekitMysqlDialect extends MysqlDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new MysqlTablesIntrospector(db);
  }
}
