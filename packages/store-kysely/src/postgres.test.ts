/**
 * Store conformance and PostgreSQL specifics when FORGEKIT_TEST_POSTGRES_URL is set; without it the
 * same tests are collected as skipped, so the run's summary counts them.
 */
import { runStoreConformance } from "@forgekit/core/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORGEKIT_TABLES, kyselyStore, postgres } from "./index.js";
import { postgresDatabase, uniqueSchemaName, type TestDatabase } from "./test-databases.js";

const url = process.env.FORGEKIT_TEST_POSTGRES_URL ?? "";
const configured = url !== "";
if (!configured) console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — PostgreSQL tests skipped");

describe.skipIf(!configured)("PostgreSQL", () => {
  let database: TestDatabase;
  let started = 0;
  beforeAll(() => {
    started = performance.now();
    database = postgresDatabase(url);
  });
  afterAll(async () => {
    await database.dispose();
    console.log(`store-kysely: PostgreSQL conformance took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  runStoreConformance("kyselyStore(postgres)", () => database.makeStore());
});

describe.skipIf(!configured)("PostgreSQL specifics", () => {
  let adminPool: pg.Pool | undefined;
  const admin = () => (adminPool ??= new pg.Pool({ connectionString: url, max: 2 }));
  afterAll(() => adminPool?.end());

  const tablesIn = async (schema: string) =>
    (await admin().query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = $1 order by table_name", [schema])).rows.map(
      (row) => row.table_name,
    );

  it("migrate - two processes migrating one fresh schema at once both succeed, in that schema", async () => {
    const schema = uniqueSchemaName();
    const a = kyselyStore(postgres(url, { schema }));
    const b = kyselyStore(postgres(url, { schema }));
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const tables = await tablesIn(schema);
      expect(tables).toEqual(expect.arrayContaining([...FORGEKIT_TABLES, "forgekit_migrations", "forgekit_migrations_lock"]));
      expect(await a.users.create({ username: "u", name: "U" }, new Date())).not.toBeNull();
      expect(await b.users.findByUsername("U")).not.toBeNull();
    } finally {
      await a.close();
      await b.close();
      await admin().query(`drop schema if exists "${schema}" cascade`);
    }
  });

  it("migrate - succeeds while other sessions keep creating and dropping schemas (tables are listed by oid, never by schema name)", async () => {
    // Kysely's migrator finds its tables through the catalog, and that read fails with 3F000 while
    // any other session drops a schema: a host with schema-per-tenant churn, or parallel test files.
    let churning = true;
    const churnPool = new pg.Pool({ connectionString: url, max: 3 });
    const churner = async (n: number) => {
      for (let i = 0; churning; i++) {
        const other = `${uniqueSchemaName()}_churn_${n}_${i}`;
        await churnPool.query(`create schema "${other}"; create table "${other}".t (id int primary key); create index on "${other}".t (id)`);
        await churnPool.query(`drop schema "${other}" cascade`);
      }
    };
    const churn = Promise.all([churner(1), churner(2), churner(3)]);
    try {
      for (let i = 0; i < 3; i++) {
        const schema = uniqueSchemaName();
        const store = kyselyStore(postgres(url, { schema }));
        await store.migrate();
        expect(await tablesIn(schema)).toEqual(expect.arrayContaining([...FORGEKIT_TABLES]));
        await store.close();
        await admin().query(`drop schema if exists "${schema}" cascade`);
      }
    } finally {
      churning = false;
      await churn;
      await churnPool.end();
    }
  });

  it("postgres(pool) - close() leaves a caller's pool open", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const schema = uniqueSchemaName();
    try {
      const store = kyselyStore(postgres(pool, { schema }));
      await store.migrate();
      await store.close();
      const { rows } = await pool.query<{ n: string }>(`select count(*) as n from "${schema}".forgekit_users`);
      expect(rows[0]?.n).toBe("0");
    } finally {
      await admin().query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    }
  });
});
