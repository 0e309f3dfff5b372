#!/usr/bin/env node
/**
 * Counts of a Vitest JSON report: passed and skipped tests; failed = failed tests plus test files
 * that failed without a failing test (a file that could not load, a failing hook). With a path
 * argument it prints `N passed, N failed, N skipped` (used by .ci/run for its final line); with
 * `--failures` it first lists each failed test and the start of its message (a timeout as "timed out").
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

/**
 * Vitest's JSON report keeps no message for a test that ran past its time limit ("Test timed out
 * in N ms" is lost): its failure is the stack captured where the test was declared, whose first
 * line is this placeholder.
 */
const TIMED_OUT = /^Error: STACK_TRACE_ERROR\s*$/;

/**
 * The recap's text of a failed test: a timeout named as one, with how long the test ran and the
 * first stack frame outside node_modules (where it is declared); else the message's first lines.
 * @param {{ failureMessages?: string[], duration?: number }} test
 * @param {(text: unknown) => string} short
 */
function failureText(test, short) {
  const text = (test.failureMessages ?? []).join("\n");
  const [first = "", ...frames] = text.split("\n");
  if (!TIMED_OUT.test(first)) return short(text);
  const ran = typeof test.duration === "number" ? ` after ${(test.duration / 1000).toFixed(1)} s` : "";
  const declared = frames.map((line) => line.trim().replace(/^at (async )?/, "")).find((frame) => frame !== "" && !frame.includes("node_modules"));
  return `timed out${ran} (the test's time limit)${declared === undefined ? "" : `, declared at ${declared}`}`;
}

/**
 * The failed tests of the report (and test files that failed without a failing test), each as
 * `file › titles` with the first lines of its failure message, so that the end of a CI log names
 * what failed even when the log is cut.
 * @param {string} reportPath
 * @param {string} [root] a prefix stripped from file names
 * @returns {{ name: string, message: string }[]}
 */
export function failures(reportPath, root = "") {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  const out = [];
  const short = (text) =>
    String(text ?? "")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(0, 6)
      .join("\n");
  for (const file of report.testResults ?? []) {
    const name = root !== "" && String(file.name).startsWith(root) ? String(file.name).slice(root.length).replace(/^\//, "") : String(file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const test of failed) {
      out.push({
        name: [name, ...(test.ancestorTitles ?? []), test.title ?? ""].join(" › "),
        message: failureText(test, short),
      });
    }
    if (file.status === "failed" && failed.length === 0) {
      // Vitest's JSON report keeps no message for a failing beforeAll/afterAll hook: say where to look.
      const message = short(file.message);
      out.push({ name, message: message !== "" ? message : "failed outside its tests (a beforeAll/afterAll hook, or the file did not load); its error is printed above, under this file's name" });
    }
  }
  return out;
}

/** The services some tests need, by the word their describe titles carry, and the variable that enables them. */
export const SERVICES = [
  { name: "PostgreSQL", variable: "FORGEKIT_TEST_POSTGRES_URL", title: /PostgreSQL/ },
  { name: "MySQL", variable: "FORGEKIT_TEST_MYSQL_URL", title: /MySQL|MariaDB/ },
  { name: "Redis", variable: "FORGEKIT_TEST_REDIS_URL", title: /Redis|BullMQ/ },
];

/**
 * How many skipped tests of the report need each service that `env` does not configure (a test
 * counts for a service when its describe titles or name carry the service's word).
 * @param {string} reportPath
 * @param {Record<string, string | undefined>} env
 * @returns {{ name: string, variable: string, skipped: number }[]}
 */
export function skippedForServices(reportPath, env) {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  const missing = SERVICES.filter((s) => (env[s.variable] ?? "") === "");
  const counts = missing.map((s) => ({ name: s.name, variable: s.variable, skipped: 0 }));
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "pending" && test.status !== "skipped" && test.status !== "todo") continue;
      const title = [...(test.ancestorTitles ?? []), test.title ?? ""].join(" ");
      const index = missing.findIndex((s) => s.title.test(title));
      if (index !== -1) counts[index].skipped += 1;
    }
  }
  return counts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const path = process.argv[2];
  if (path === undefined) {
    console.error("usage: test-summary.mjs <vitest-json-report>");
    process.exit(2);
  }
  const counts = summarize(path);
  if (process.argv.includes("--failures")) {
    for (const failure of failures(path, process.cwd())) {
      console.log(`FAILED ${failure.name}`);
      if (failure.message !== "") console.log(failure.message.replace(/^/gm, "    "));
    }
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}
