/**
 * Redraws docs/bench/*.svg from the figures stored in docs/bench/results.json, without running the
 * benchmarks again (after a change of the chart generator, tools/bench-charts.ts):
 * `npx tsx bench/redraw-charts.ts`. Each chart keeps the date, Node version and CPU count of its run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { panelsOf, renderChart } from "../tools/bench-charts.js";

const CHARTS = join(import.meta.dirname, "..", "docs", "bench");

/** One stored run of a benchmark (as bench/run.ts records it). */
interface StoredRun {
  date: string;
  node: string;
  cpus: number;
  figures: Record<string, unknown>;
}

const runs = JSON.parse(readFileSync(join(CHARTS, "results.json"), "utf8")) as Record<string, StoredRun>;
for (const [name, run] of Object.entries(runs)) {
  const panels = panelsOf(run.figures);
  if (panels.length === 0) continue;
  writeFileSync(join(CHARTS, `${name}.svg`), renderChart(`pnpm bench: ${name}`, `${run.date.slice(0, 10)} · Node ${run.node} · ${run.cpus} CPUs`, panels));
  console.log(`redrawn: docs/bench/${name}.svg`);
}
