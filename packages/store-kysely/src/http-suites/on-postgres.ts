/**
 * Every HTTP suite on PostgreSQL (a database of its own per instance, copied from a migrated template),
 * when FORGEKIT_TEST_POSTGRES_URL is set; without it the same tests are collected as skipped, so the
 * run's summary counts them.
 */
import { describe } from "vitest";
import { kyselyStore } from "../index.js";
import { dropPostgresTemplates, migratedPostgresCopy, type MigratedCopy } from "../test-templates.js";
import { describeOn, suitePart } from "./describe-on.js";
import suiteCosts from "./suite-costs.json" with { type: "json" };

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
        // Eight at a time: each drop waits for a checkpoint, which concurrent drops share (130 one by one took minutes).
        for (let i = 0; i < copies.length; i += 8) await Promise.all(copies.slice(i, i + 8).map((copy) => copy.drop()));
        await dropPostgresTemplates();
      },
      suitePart(part, parts, suiteCosts.postgres),
    );
  });
}
