/**
 * Every HTTP suite on PostgreSQL (a database of its own per instance, copied from a migrated template),
 * when FORGEKIT_TEST_POSTGRES_URL is set; without it the same tests are collected as skipped, so the
 * run's summary counts them.
 */
import { describe } from "vitest";
import { kyselyStore } from "../index.js";
import { dropPostgresTemplates, migratedPostgresCopy, type MigratedCopy } from "../test-templates.js";
import { describeOn, suitePart } from "./describe-on.js";

const pgUrl = process.env.FORGEKIT_TEST_POSTGRES_URL;
const configured = pgUrl !== undefined && pgUrl !== "";
if (!configured) console.log("store-kysely: FORGEKIT_TEST_POSTGRES_URL is not set — the HTTP suites on PostgreSQL are skipped");

/** Part `part` of `parts` of the HTTP suites on PostgreSQL (one test file each, run side by side). */
export function describeOnPostgres(part: number, parts: number): void {
  describe.skipIf(!configured)(`PostgreSQL (part ${part} of ${parts})`, () => {
    const copies: MigratedCopy[] = [];
    describeOn(
      "PostgreSQL",
      async () => {
        const copy = await migratedPostgresCopy(pgUrl ?? "");
        copies.push(copy);
        return kyselyStore(copy.config);
      },
      async () => {
        for (const copy of copies) await copy.drop();
        await dropPostgresTemplates();
      },
      suitePart(part, parts),
    );
  });
}
