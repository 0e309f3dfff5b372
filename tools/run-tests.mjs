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
import { serverCpuMs } from "./test-costs/servers.mjs";
import { fileCosts, formatCosts } from "./test-costs/summary.mjs";
import { skippedForServices, summarize } from "./test-summary.mjs";
import { binPath, root } from "./workspace-packages.mjs";

const report = join(root, "test-results", "vitest.json");
mkdirSync(join(root, "test-results"), { recursive: true });
rmSync(report, { force: true });
const costs = join(root, "test-results", "file-costs.jsonl");
rmSync(costs, { force: true });
const serversBefore = serverCpuMs();
const startedAt = Date.now();

const vitest = binPath("vitest", "vitest");
const args = ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: "inherit" });
if (run.error) throw run.error;

if (!existsSync(report)) {
  console.log("0 passed, 1 failed (vitest wrote no report)");
  process.exit(run.status === 0 ? 1 : (run.status ?? 1));
}
// Where the time went: the slowest files and the CPU of the database servers the run used (issue #23).
try {
  console.log(formatCosts(fileCosts(report, costs, root), 15));
  const servers = serverCpuMs();
  const used = Object.entries(servers)
    .map(([name, ms]) => [name, ms - (serversBefore[name] ?? 0)])
    .filter(([, ms]) => ms > 0)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`);
  console.log(`test run: ${((Date.now() - startedAt) / 1000).toFixed(0)} s wall; database and git servers' CPU: ${used.length === 0 ? "none seen" : used.join(", ")}`);
} catch (error) {
  console.log(`(no cost summary: ${error instanceof Error ? error.message : String(error)})`);
}
const counts = summarize(report);
// Tests that need a service the environment does not name are collected as skipped: say how many, and why.
const notRun = skippedForServices(report, process.env).filter((s) => s.skipped > 0);
if (notRun.length > 0) {
  console.log(`not run for lack of a service: ${notRun.map((s) => `${s.skipped} need ${s.name} (set ${s.variable})`).join(", ")}; see docs/guide/tests.md`);
}
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(run.status ?? 1);
