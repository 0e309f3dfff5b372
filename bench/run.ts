/**
 * `pnpm bench`: runs every benchmark module in bench/ (each `*.ts` file other than this one, test
 * files and `_`-prefixed helpers), one after the other, then prints a summary. A benchmark module
 * exports its entry as `default`, `run`, or a single function whose name starts with `bench`; the
 * function may be async and may return a result (printed in the summary: numbers, strings, or an
 * object of named figures). `pnpm bench <name>…` runs only the named modules (`events`, `git-clone.ts`).
 *
 * Every benchmark that returns figures also gets an SVG chart, `docs/bench/<name>.svg`, and its
 * figures go to `docs/bench/results.json` (with the date, Node version and CPU count of the run);
 * docs/benchmarks.md shows the charts. Figures of benchmarks not run this time stay as they were.
 * Last, issue 21's goal table (bench/_goals.ts) from this run's figures.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { panelsOf, renderChart } from "../tools/bench-charts.js";
import { goalTable } from "./_goals.js";

type BenchFn = () => unknown;

/** The benchmark module files of `dir`, sorted. */
export function benchmarkFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && f !== "run.ts" && !f.endsWith(".test.ts") && !f.endsWith(".d.ts") && !f.startsWith("_"))
    .sort();
}

/** The entry function of a benchmark module, or an error message when it has none or several. */
export function entryOf(mod: Record<string, unknown>): BenchFn | string {
  if (typeof mod["default"] === "function") return mod["default"] as BenchFn;
  if (typeof mod["run"] === "function") return mod["run"] as BenchFn;
  const candidates = Object.entries(mod).filter(([name, v]) => typeof v === "function" && name.startsWith("bench"));
  if (candidates.length === 1 && candidates[0] !== undefined) return candidates[0][1] as BenchFn;
  return candidates.length === 0
    ? "exports no `default`, `run` or `bench*` function"
    : `exports several bench* functions (${candidates.map(([n]) => n).join(", ")}); export one as default`;
}

/** One line per figure of a benchmark's result. */
export function describeResult(result: unknown): string[] {
  if (result === undefined || result === null) return ["done"];
  if (typeof result === "number") return [formatNumber(result)];
  if (typeof result !== "object") return [typeof result === "string" ? result : JSON.stringify(result)];
  return Object.entries(result as Record<string, unknown>).map(
    ([key, value]) => `${key}: ${typeof value === "number" ? formatNumber(value) : JSON.stringify(value)}`,
  );
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3);
}

/** Where the charts and the figures of the last runs go. */
const CHARTS = join(import.meta.dirname, "..", "docs", "bench");

interface RecordedRun {
  date: string;
  node: string;
  cpus: number;
  seconds: number;
  figures: Record<string, unknown>;
}

/** Writes the chart of one benchmark's figures and records them in results.json. */
function recordFigures(file: string, result: unknown, seconds: number): void {
  if (typeof result !== "object" || result === null) return;
  const name = file.replace(/\.ts$/, "");
  const figures = result as Record<string, unknown>;
  const panels = panelsOf(figures);
  if (panels.length === 0) return;
  mkdirSync(CHARTS, { recursive: true });
  const run: RecordedRun = { date: new Date().toISOString(), node: process.version, cpus: availableParallelism(), seconds: Number(seconds.toFixed(1)), figures };
  writeFileSync(join(CHARTS, `${name}.svg`), renderChart(`pnpm bench: ${name}`, `${run.date.slice(0, 10)} · Node ${run.node} · ${run.cpus} CPUs`, panels));
  const resultsFile = join(CHARTS, "results.json");
  const all = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, "utf8")) as Record<string, RecordedRun>) : {};
  all[name] = run;
  writeFileSync(resultsFile, `${JSON.stringify(all, null, 2)}\n`);
}

async function main(): Promise<number> {
  const dir = import.meta.dirname;
  const only = process.argv.slice(2).map((a) => a.replace(/\.ts$/, ""));
  const files = benchmarkFiles(dir).filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, "")));
  if (files.length === 0) {
    console.log("bench: no benchmark modules in bench/");
    return 1;
  }
  const summary: { file: string; ok: boolean; lines: string[]; seconds: number }[] = [];
  const figures: Record<string, Record<string, unknown>> = {};
  for (const file of files) {
    console.log(`\n── bench ${file}`);
    const started = performance.now();
    try {
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
      const entry = entryOf(mod);
      if (typeof entry === "string") throw new Error(`${file} ${entry}`);
      const result = await entry();
      const seconds = (performance.now() - started) / 1000;
      summary.push({ file, ok: true, lines: describeResult(result), seconds });
      if (typeof result === "object" && result !== null) figures[file.replace(/\.ts$/, "")] = result as Record<string, unknown>;
      recordFigures(file, result, seconds);
    } catch (error) {
      console.error(error);
      summary.push({ file, ok: false, lines: [error instanceof Error ? error.message : String(error)], seconds: (performance.now() - started) / 1000 });
    }
  }
  console.log("\n══ bench summary");
  for (const entry of summary) {
    console.log(`${entry.ok ? "ok  " : "FAIL"} ${entry.file} (${entry.seconds.toFixed(1)} s)`);
    for (const line of entry.lines) console.log(`     ${line}`);
  }
  console.log("\n══ issue 21 goals (this run)");
  for (const line of goalTable(figures)) console.log(`  ${line}`);
  return summary.every((s) => s.ok) ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main();
}
