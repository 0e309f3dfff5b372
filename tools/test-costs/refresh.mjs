#!/usr/bin/env node
/**
 * Refreshes the tables that only decide the order and grouping of test work, from the last whole
 * `pnpm test` run (test-results/vitest.json):
 * - tools/test-costs/expected.json: each test file's wall seconds (the sequencer starts the longest first);
 * - packages/store-kysely/src/http-suites/suite-costs.json: each HTTP suite's seconds per database
 *   (the parts of the store HTTP-suite files are balanced by them). Which suite a test belongs to
 *   comes from `vitest list` over every suite, each under a describe named after it.
 * `node tools/test-costs/refresh.mjs` after a whole run; commit both files.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { binPath, root } from "../workspace-packages.mjs";
import { fileCosts } from "./summary.mjs";

const reportPath = join(root, "test-results", "vitest.json");
const report = JSON.parse(readFileSync(reportPath, "utf8"));

const files = Object.fromEntries(fileCosts(reportPath, join(root, "test-results", "file-costs.jsonl"), root).map((cost) => [cost.file, Math.round(cost.wallMs / 100) / 10]));
const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, "tools", "test-costs", "expected.json"), `${JSON.stringify({ "//": "Wall seconds per test file in a whole run; only orders the files (sequencer.ts). Refresh: node tools/test-costs/refresh.mjs", files: sorted }, null, 1)}\n`);

// Test name (below the adapter's describe) → suite name, from a listing of every suite under its own describe.
const probe = join(root, "packages", "core", "src", "testing", "suite-names.probe.test.ts");
const listing = join(root, "test-results", "suite-names.json");
writeFileSync(
  probe,
  [
    'import { describe } from "vitest";',
    'import { allHttpSuites, describeHttpSuite } from "./index.js";',
    'for (const suite of allHttpSuites) describe(`#${suite.name}`, () => describeHttpSuite("probe", () => Promise.reject(new Error("listed only")), [suite]));',
    "",
  ].join("\n"),
);
try {
  const run = spawnSync(process.execPath, [binPath("vitest", "vitest"), "list", "--project", "core", relative(root, probe), `--json=${listing}`], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) throw new Error("vitest list failed");
} finally {
  rmSync(probe, { force: true });
}
const suiteOf = new Map();
for (const test of JSON.parse(readFileSync(listing, "utf8"))) {
  const match = /^#(\w+) > probe > (.*)$/s.exec(test.name);
  if (match) suiteOf.set(match[2], match[1]);
}
const costs = {};
for (const result of report.testResults ?? []) {
  const database = /http-suites\/(sqlite|postgres|mysql)-\d+\.test\.ts$/.exec(String(result.name))?.[1];
  if (database === undefined) continue;
  costs[database] ??= {};
  for (const test of result.assertionResults ?? []) {
    // Below "<Database> (part …)" > "HTTP suites on …" > "node:http + …" (SQLite has one level less).
    const titles = test.ancestorTitles ?? [];
    const at = titles.findIndex((t) => t.startsWith("node:http + "));
    const suite = suiteOf.get([...titles.slice(at + 1), test.title].join(" > "));
    if (suite !== undefined) costs[database][suite] = (costs[database][suite] ?? 0) + (test.duration ?? 0) / 1000;
  }
}
for (const database of Object.keys(costs)) for (const suite of Object.keys(costs[database])) costs[database][suite] = Math.round(costs[database][suite] * 10) / 10;
const target = join(root, "packages", "store-kysely", "src", "http-suites", "suite-costs.json");
const note = "Seconds each HTTP suite took per database in a whole pnpm test run (refresh: node tools/test-costs/refresh.mjs). Only balances the parts; a stale or missing entry makes a part longer, never a test wrong.";
writeFileSync(target, `${JSON.stringify({ "//": note, ...costs }, null, 1)}\n`);
console.log(`expected.json: ${Object.keys(files).length} files; suite-costs.json: ${Object.entries(costs).map(([d, c]) => `${d} ${Object.keys(c).length} suites`).join(", ")}`);
