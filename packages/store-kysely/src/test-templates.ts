/**
 * Test-only: migrated databases by copy instead of by migration. The HTTP suites build a fresh store
 * per suite (about 90 per database run); migrating each from nothing costs seconds on PostgreSQL and
 * MariaDB (every DDL statement is a round trip and, on MariaDB, files and fsyncs). Here the first store
 * of a process is migrated into a template, and every later one is a copy of it:
 * - PostgreSQL: `create database … template …` (a block copy of the template; about 10× faster than
 *   migrating a schema on this machine);
 * - MySQL / MariaDB: the template's `show create table` text for each table, replayed in a new database,
 *   and the rows the migrations wrote (their history) copied with `insert … select` (about 4× faster).
 * A copy holds exactly what the migrations made (same tables, indexes, identity counters and rows);
 * migrating it again finds nothing to do. Templates are dropped with the process's last copy.
 */
import { createPool, type Pool as MysqlPool } from "mysql2";
import pg from "pg";
import { mysql } from "./dialects/mysql.js";
import { postgres } from "./dialects/postgres.js";
import type { DialectConfig } from "./dialects/traits.js";
import { kyselyStore } from "./store.js";

/** A migrated database of its own: its dialect configuration, and a teardown that drops it. */
export interface MigratedCopy {
  config: DialectConfig;
  drop(): Promise<void>;
}

const runId = () => `${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
const withDatabase = (url: string, name: string) => {
  const target = new URL(url.replace(/^mariadb:/i, "mysql:"));
  target.pathname = `/${name}`;
  return target.toString();
};

/** The schema copies of PostgreSQL use (inside their own database). */
const PG_SCHEMA = "forgekit";

const pgTemplates = new Map<string, Promise<string>>();

async function pgAdmin<T>(url: string, work: (client: pg.Pool) => Promise<T>): Promise<T> {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The process's migrated PostgreSQL template database on `url`'s server (made once). */
function pgTemplate(url: string): Promise<string> {
  let template = pgTemplates.get(url);
  if (template === undefined) {
    template = (async () => {
      const name = `forgekit_tmpl_${runId()}`;
      await pgAdmin(url, (admin) => admin.query(`create database "${name}"`));
      const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: 2 });
      const store = kyselyStore(postgres(pool, { schema: PG_SCHEMA }));
      try {
        await store.migrate();
      } finally {
        await store.close();
        await pool.end().catch(() => undefined);
      }
      return name;
    })();
    pgTemplates.set(url, template);
  }
  return template;
}

/**
 * A new PostgreSQL database on `url`'s server, copied from a migrated template: every forgekit table
 * empty but for what migrating writes. `drop()` closes its pool and drops it.
 */
export async function migratedPostgresCopy(url: string, poolSize = 6): Promise<MigratedCopy> {
  const template = await pgTemplate(url);
  const name = `forgekit_test_${runId()}`;
  // Copies from one template are serialised by PostgreSQL itself (it locks the template while copying).
  await pgAdmin(url, (admin) => admin.query(`create database "${name}" template "${template}"`));
  const pool = new pg.Pool({ connectionString: withDatabase(url, name), max: poolSize, idleTimeoutMillis: 2_000 });
  return {
    config: postgres(pool, { schema: PG_SCHEMA }),
    async drop() {
      await pool.end().catch(() => undefined);
      await pgAdmin(url, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** Drops the process's PostgreSQL templates (call after the last copy is dropped). */
export async function dropPostgresTemplates(): Promise<void> {
  for (const [url, template] of pgTemplates) {
    pgTemplates.delete(url);
    const name = await template.catch(() => undefined);
    if (name !== undefined) await pgAdmin(url, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
  }
}

interface MysqlTemplate {
  name: string;
  /** `create table` statements, as the template's server prints them. */
  tables: string[];
  /** Tables holding rows after migrating (copied into each copy). */
  filled: string[];
}

const mysqlTemplates = new Map<string, Promise<MysqlTemplate>>();

async function mysqlAdmin<T>(url: string, work: (admin: ReturnType<MysqlPool["promise"]>) => Promise<T>): Promise<T> {
  const admin = createPool({ uri: url.replace(/^mariadb:/i, "mysql:"), connectionLimit: 1, multipleStatements: true }).promise();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function mysqlTemplate(url: string): Promise<MysqlTemplate> {
  let template = mysqlTemplates.get(url);
  if (template === undefined) {
    template = (async () => {
      const name = `forgekit_tmpl_${runId()}`;
      await mysqlAdmin(url, (admin) => admin.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`));
      const store = kyselyStore(mysql(withDatabase(url, name)));
      try {
        await store.migrate();
      } finally {
        await store.close();
      }
      return mysqlAdmin(url, async (admin) => {
        const [rows] = (await admin.query("select table_name as name, table_rows as estimate from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE'", [name])) as unknown as [{ name: string }[]];
        const tables: string[] = [];
        const filled: string[] = [];
        for (const { name: table } of rows) {
          const [created] = (await admin.query(`show create table \`${name}\`.\`${table}\``)) as unknown as [Record<string, string>[]];
          const statement = created[0]?.["Create Table"];
          if (statement === undefined) throw new Error(`no create statement for ${table}`);
          tables.push(statement);
          const [count] = (await admin.query(`select count(*) as n from \`${name}\`.\`${table}\``)) as unknown as [{ n: number }[]];
          if (Number(count[0]?.n ?? 0) > 0) filled.push(table);
        }
        return { name, tables, filled };
      });
    })();
    mysqlTemplates.set(url, template);
  }
  return template;
}

/**
 * A new MySQL / MariaDB database next to `url`'s, with the tables, indexes, identity counters and rows
 * of a migrated template. `drop()` closes its pool and drops it.
 */
export async function migratedMysqlCopy(url: string, connectionLimit = 6): Promise<MigratedCopy> {
  const template = await mysqlTemplate(url);
  const name = `forgekit_test_${runId()}`;
  await mysqlAdmin(url, (admin) =>
    admin.query(
      [
        `create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`,
        `use \`${name}\``,
        // Tables come in the server's order, not in their foreign keys' order.
        "set foreign_key_checks = 0",
        ...template.tables,
        ...template.filled.map((table) => `insert into \`${name}\`.\`${table}\` select * from \`${template.name}\`.\`${table}\``),
        "set foreign_key_checks = 1",
      ].join(";\n"),
    ),
  );
  const pool = createPool({ uri: withDatabase(url, name), dateStrings: true, timezone: "Z", connectionLimit });
  return {
    config: mysql(pool),
    async drop() {
      await new Promise<void>((resolve) => pool.end(() => resolve()));
      await mysqlAdmin(url, (admin) => admin.query(`drop database if exists \`${name}\``));
    },
  };
}

/** Drops the process's MySQL templates (call after the last copy is dropped). */
export async function dropMysqlTemplates(): Promise<void> {
  for (const [url, template] of mysqlTemplates) {
    mysqlTemplates.delete(url);
    const made = await template.catch(() => undefined);
    if (made !== undefined) await mysqlAdmin(url, (admin) => admin.query(`drop database if exists \`${made.name}\``));
  }
}
