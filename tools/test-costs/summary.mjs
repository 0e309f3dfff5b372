#!/usr/bin/env node
/**
 * Where the test run's time went (issue #23): each test file's wall time (from Vitest's JSON report)
 * with the CPU it cost in its worker and in the child processes it waited for (from
 * test-results/file-costs.jsonl, written by record.ts), the slowest files first, and the totals.
 * `node tools/test-costs/summary.mjs [report] [--top N]`; run-tests.mjs prints it after every run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * @param {string} reportPath Vitest's JSON report
 * @param {string} costsPath file-costs.jsonl
 * @param {string} root
 * @returns {{ file: string, wallMs: number, cpuMs: number, childrenCpuMs: number }[]} the slowest first
 */
export function fileCosts(reportPath, costsPath, root) {
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  /** @type {Map<string, { cpuMs: number, childrenCpuMs: number }>} */
  const cpu = new Map();
  if (existsSync(costsPath)) {
    for (const line of readFileSync(costsPath, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const entry = JSON.parse(line);
        const seen = cpu.get(entry.file) ?? { cpuMs: 0, childrenCpuMs: 0 };
        cpu.set(entry.file, { cpuMs: seen.cpuMs + entry.cpuMs, childrenCpuMs: seen.childrenCpuMs + entry.childrenCpuMs });
      } catch {
        // a line cut by a killed worker
      }
    }
  }
  return (report.testResults ?? [])
    .map((result) => {
      const file = relative(root, String(result.name));
      const wallMs = Math.max(0, Number(result.endTime ?? 0) - Number(result.startTime ?? 0));
      return { file, wallMs, ...(cpu.get(file) ?? { cpuMs: 0, childrenCpuMs: 0 }) };
    })
    .sort((a, b) => b.wallMs - a.wallMs);
}

/**
 * The printed table: the `top` slowest files, then the totals over every file.
 * @param {ReturnType<typeof fileCosts>} costs
 * @param {number} top
 */
export function formatCosts(costs, top) {
  const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
  const lines = [`slowest test files (wall s, worker CPU s, child processes' CPU s), ${Math.min(top, costs.length)} of ${costs.length}:`];
  for (const c of costs.slice(0, top)) lines.push(`${s(c.wallMs)} ${s(c.cpuMs)} ${s(c.childrenCpuMs)}  ${c.file}`);
  const sum = (key) => costs.reduce((total, c) => total + c[key], 0);
  lines.push(`${s(sum("wallMs"))} ${s(sum("cpuMs"))} ${s(sum("childrenCpuMs"))}  all files (wall summed over parallel workers)`);
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = join(import.meta.dirname, "..", "..");
  const args = process.argv.slice(2);
  const topAt = args.indexOf("--top");
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 20;
  const report = args.find((a, i) => !a.startsWith("--") && i !== topAt + 1) ?? join(root, "test-results", "vitest.json");
  console.log(formatCosts(fileCosts(report, join(root, "test-results", "file-costs.jsonl"), root), top));
}
