/**
 * `pnpm bench`: runs every benchmark module in bench/ (each `*.ts` file other than this one, test
 * files and `_`-prefixed helpers), one after the other, then prints a summary. A benchmark module
 * exports its entry as `default`, `run`, or a single function whose name starts with `bench`; the
 * function may be async and may return a result (printed in the summary: numbers, strings, or an
 * object of named figures).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

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

async function main(): Promise<number> {
  const dir = import.meta.dirname;
  const files = benchmarkFiles(dir);
  if (files.length === 0) {
    console.log("bench: no benchmark modules in bench/");
    return 1;
  }
  const summary: { file: string; ok: boolean; lines: string[]; seconds: number }[] = [];
  for (const file of files) {
    console.log(`\n── bench ${file}`);
    const started = performance.now();
    try {
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
      const entry = entryOf(mod);
      if (typeof entry === "string") throw new Error(`${file} ${entry}`);
      const result = await entry();
      summary.push({ file, ok: true, lines: describeResult(result), seconds: (performance.now() - started) / 1000 });
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
  return summary.every((s) => s.ok) ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main();
}
