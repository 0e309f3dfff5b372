import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { failures, skippedForServices, summarize } from "./test-summary.mjs";

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

describe("failures", () => {
  it("names each failed test by file and titles with the start of its message, and each broken file", () => {
    const path = report({
      testResults: [
        {
          name: "/repo/packages/a/x.test.ts",
          status: "failed",
          assertionResults: [
            { status: "passed", ancestorTitles: ["GET /x"], title: "ok" },
            { status: "failed", ancestorTitles: ["GET /x"], title: "answers 404", failureMessages: ["AssertionError: expected 500 to be 404\n\n at a\n at b\n at c\n at d\n at e\n at f"] },
          ],
        },
        { name: "/repo/packages/b/y.test.ts", status: "failed", message: "Cannot find module 'z'", assertionResults: [] },
        { name: "/repo/packages/c/z.test.ts", status: "passed", assertionResults: [{ status: "passed", title: "fine" }] },
      ],
    });
    expect(failures(path, "/repo")).toEqual([
      { name: "packages/a/x.test.ts › GET /x › answers 404", message: "AssertionError: expected 500 to be 404\n at a\n at b\n at c\n at d\n at e" },
      { name: "packages/b/y.test.ts", message: "Cannot find module 'z'" },
    ]);
  });
});

describe("failures - a file whose hook failed", () => {
  it("says the error is outside its tests where Vitest's report kept no message (a failing afterAll)", () => {
    const path = report({ testResults: [{ name: "/repo/examples/a/x.test.ts", status: "failed", message: "", assertionResults: [{ status: "passed", title: "ok" }] }] });
    expect(failures(path, "/repo")).toEqual([{ name: "examples/a/x.test.ts", message: expect.stringMatching(/^failed outside its tests \(a beforeAll\/afterAll hook/) }]);
  });
});

describe("failures - a test that ran out of time", () => {
  it("is named a timeout with how long it ran, not vitest's placeholder `Error: STACK_TRACE_ERROR`", () => {
    // What vitest 4's JSON report holds for a test past its timeout: no message, the stack captured where it was declared.
    const stack = [
      "Error: STACK_TRACE_ERROR",
      "    at task (file:///repo/node_modules/.pnpm/@vitest+runner@4.1.12/node_modules/@vitest/runner/dist/chunk-artifact.js:1784:27)",
      "    at chain (file:///repo/node_modules/.pnpm/@vitest+runner@4.1.12/node_modules/@vitest/runner/dist/chunk-artifact.js:599:14)",
      "    at /repo/packages/core/src/storage-moves/service.test.ts:68:3",
      "    at async VitestModuleEvaluator._runInlinedModule (file:///repo/node_modules/.pnpm/vitest@4.1.12/node_modules/vitest/dist/module-evaluator.js:206:4)",
    ].join("\n");
    const path = report({
      testResults: [
        {
          name: "/repo/packages/core/src/storage-moves/service.test.ts",
          status: "failed",
          assertionResults: [{ status: "failed", ancestorTitles: ["fk.storageMoves.schedule"], title: "makes the project read-only", duration: 20_004.2, failureMessages: [stack] }],
        },
      ],
    });
    expect(failures(path, "/repo")).toEqual([
      { name: "packages/core/src/storage-moves/service.test.ts › fk.storageMoves.schedule › makes the project read-only", message: "timed out after 20.0 s (the test's time limit), declared at /repo/packages/core/src/storage-moves/service.test.ts:68:3" },
    ]);
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
