/**
 * Every HTTP suite on PostgreSQL (a fresh schema per instance), when FORGEKIT_TEST_POSTGRES_URL is
 * set; without it the same tests are collected as skipped, so the run's summary counts them.
 */
import pg from "pg";
import { describe } from "vitest";
import { kyselyStore, postgres } from "../index.js";
import { uniqueSchemaName } from "../test-databases.js";
import { describeOn, suitePart } from "./describe-on.js";

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
const configured = pgUrl !== undefined && pgUrl !== "";
if (!configured) console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP suites on PostgreSQL are skipped");

/** Part `part` of `parts` of the HTTP suites on PostgreSQL (one test file each, run side by side). */
export function describeOnPostgres(part: number, parts: number): void {
  describe.skipIf(!configured)(`PostgreSQL (part ${part} of ${parts})`, () => {
    let pool: pg.Pool | undefined;
    const schemas: string[] = [];
    describeOn(
      "PostgreSQL",
      () => {
        pool ??= new pg.Pool({ connectionString: pgUrl, max: 8 });
        const schema = uniqueSchemaName();
        schemas.push(schema);
        return kyselyStore(postgres(pool, { schema }));
      },
      async () => {
        if (pool === undefined) return;
        for (const schema of schemas) await pool.query(`drop schema if exists "${schema}" cascade`);
        await pool.end();
      },
      suitePart(part, parts),
    );
  });
}
