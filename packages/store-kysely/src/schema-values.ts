/** The column value types every table declaration shares (schema.ts and the schema-*.ts files import them from here). */

/** A boolean as the driver returns it: PostgreSQL `boolean`, MySQL `tinyint(1)`, SQLite integer. */
export type DbBool = boolean | number;
/** A timestamp as the driver returns it: PostgreSQL `Date`, MySQL string or `Date`, SQLite epoch ms. */
export type DbDate = Date | string | number;
