/** Every HTTP suite on PostgreSQL (a fresh schema per instance), when FORGEKIT_TEST_POSTGRES_URL is set. */
import pg from "pg";
import { it } from "vitest";
import { kyselyStore, postgres } from "../index.js";
import { uniqueSchemaName } from "../test-databases.js";
import { describeOn } from "./describe-on.js";

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
if (pgUrl !== undefined && pgUrl !== "") {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 8 });
  const schemas: string[] = [];
  describeOn(
    "PostgreSQL",
    () => {
      const schema = uniqueSchemaName();
      schemas.push(schema);
      return kyselyStore(postgres(pool, { schema }));
    },
    async () => {
      for (const schema of schemas) await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    },
  );
} else {
  console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP suites on PostgreSQL are skipped");
  it.skip("HTTP suites on PostgreSQL (set FORGEKIT_TEST_POSTGRES_URL)", () => {});
}
