#!/usr/bin/env node
/**
 * Counts of a Vitest JSON report: passed and skipped tests; failed = failed tests plus test files
 * that failed without a failing test (a file that could not load, a failing hook). With a path
 * argument it prints `N passed, N failed, N skipped` (used by .ci/run for its final line).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * @param {string} reportPath
 * @returns {{ passed: number, failed: number, skipped: number }}
 */
export function summarize(reportPath) {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const path = process.argv[2];
  if (path === undefined) {
    console.error("usage: test-summary.mjs <vitest-json-report>");
    process.exit(2);
  }
  const counts = summarize(path);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}
