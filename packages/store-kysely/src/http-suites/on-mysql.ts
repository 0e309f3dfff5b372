/**
 * The HTTP suites on MySQL / MariaDB (a database of its own per instance, copied from a migrated
 * template), when FORGEKIT_TEST_MYSQL_URL is set; without it the same tests are collected as skipped,
 * so the run's summary counts them.
 */
import type { Store } from "@forgekit/core";
import { describe } from "vitest";
import { kyselyStore } from "../index.js";
import { dropMysqlTemplates, migratedMysqlCopy } from "../test-templates.js";
import { describeOn, suitePart } from "./describe-on.js";
import suiteCosts from "./suite-costs.json" with { type: "json" };

const myUrl = process.env.FORGEKIT_TEST_MYSQL_URL ?? "";
const configured = myUrl !== "";
if (!configured) console.log("store-kysely: FORGEKIT_TEST_MYSQL_URL is not set — the HTTP suites on MySQL are skipped");

/** Part `part` of `parts` of the HTTP suites on MySQL (one test file each, run side by side). */
export function describeOnMysql(part: number, parts: number): void {
  describe.skipIf(!configured)(`MySQL (part ${part} of ${parts})`, () => {
    const databases: { drop: () => Promise<void>; store: Store }[] = [];
    describeOn(
      "MySQL",
      async () => {
        const copy = await migratedMysqlCopy(myUrl);
        const store = kyselyStore(copy.config);
        databases.push({ drop: () => copy.drop(), store });
        return store;
      },
      async () => {
        for (let i = 0; i < databases.length; i += 8) {
          await Promise.all(
            databases.slice(i, i + 8).map(async ({ store, drop }) => {
              await store.close();
              await drop();
            }),
          );
        }
        await dropMysqlTemplates();
      },
      suitePart(part, parts, suiteCosts.mysql),
    );
  });
}
