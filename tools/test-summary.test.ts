import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { summarize } from "./test-summary.mjs";

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
