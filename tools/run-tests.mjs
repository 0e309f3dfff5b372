#!/usr/bin/env node
/**
 * Root `test` script: runs the whole Vitest suite (every project of vitest.workspace.ts) with the
 * default reporter plus a JSON report in test-results/vitest.json, then prints one plain line
 * `N passed, N failed, N skipped` (after a line counting the tests that need PostgreSQL, MySQL or
 * Redis when their variables are unset) and exits with Vitest's exit code. Extra arguments go to Vitest
 * (e.g. `pnpm test --project core`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { skippedForServices, summarize } from "./test-summary.mjs";
import { binPath, root } from "./workspace-packages.mjs";

const report = join(root, "test-results", "vitest.json");
mkdirSync(join(root, "test-results"), { recursive: true });
rmSync(report, { force: true });

const vitest = binPath("vitest", "vitest");
const args = ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: "inherit" });
if (run.error) throw run.error;

if (!existsSync(report)) {
  console.log("0 passed, 1 failed (vitest wrote no report)");
  process.exit(run.status === 0 ? 1 : (run.status ?? 1));
}
const counts = summarize(report);
// Tests that need a service the environment does not name are collected as skipped: say how many, and why.
const notRun = skippedForServices(report, process.env).filter((s) => s.skipped > 0);
if (notRun.length > 0) {
  console.log(`not run for lack of a service: ${notRun.map((s) => `${s.skipped} need ${s.name} (set ${s.variable})`).join(", ")}; see docs/guide/tests.md`);
}
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(run.status ?? 1);
