import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { skippedForServices, summarize } from "./test-summary.mjs";

const dir = mkdtempSync(join(tmpdir(), "forgekit-summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function report(content: unknown): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("summarize", () => {
  it("counts passed, failed and skipped tests", () => {
    const path = report({ numPassedTests: 7, numFailedTests: 2, numPendingTests: 3, numTodoTests: 1, testResults: [] });
    expect(summarize(path)).toEqual({ passed: 7, failed: 2, skipped: 4 });
  });

  it("counts a test file that failed without a failing test (load error, hook) as a failure", () => {
    const path = report({
      numPassedTests: 1,
      numFailedTests: 1,
      testResults: [
        { status: "failed", assertionResults: [] },
        { status: "failed", assertionResults: [{ status: "failed" }] },
        { status: "passed", assertionResults: [{ status: "passed" }] },
      ],
    });
    expect(summarize(path)).toEqual({ passed: 1, failed: 2, skipped: 0 });
  });
});

describe("skippedForServices", () => {
  const path = () =>
    report({
      testResults: [
        {
          status: "skipped",
          assertionResults: [
            { status: "pending", ancestorTitles: ["PostgreSQL", "HTTP suites on PostgreSQL"], title: "GET /user" },
            { status: "pending", ancestorTitles: ["MySQL"], title: "GET /user" },
            { status: "skipped", ancestorTitles: ["jobs on BullMQ"], title: "claims" },
            { status: "passed", ancestorTitles: ["PostgreSQL"], title: "ran anyway" },
            { status: "pending", ancestorTitles: ["fetch"], title: "a GET body merges" },
          ],
        },
      ],
    });

  it("counts the skipped tests of each service whose variable is unset", () => {
    expect(skippedForServices(path(), {})).toEqual([
      { name: "PostgreSQL", variable: "FORGEKIT_TEST_POSTGRES_URL", skipped: 1 },
      { name: "MySQL", variable: "FORGEKIT_TEST_MYSQL_URL", skipped: 1 },
      { name: "Redis", variable: "FORGEKIT_TEST_REDIS_URL", skipped: 1 },
    ]);
  });

  it("leaves out services the environment configures", () => {
    expect(skippedForServices(path(), { FORGEKIT_TEST_POSTGRES_URL: "postgres://x", FORGEKIT_TEST_REDIS_URL: "redis://x" })).toEqual([
      { name: "MySQL", variable: "FORGEKIT_TEST_MYSQL_URL", skipped: 1 },
    ]);
  });
});
