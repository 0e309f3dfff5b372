import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { goalOf, labelWidthOf, panelsOf, renderChart } from "./bench-charts.js";

describe("goalOf", () => {
  it("reads a goal from a figure's name", () => {
    expect(goalOf("adapter-express / express-static (goal ≥ 0.8)")).toEqual({ op: "≥", value: 0.8 });
    expect(goalOf("ratio 1000000/10000 feed (goal <= 1.5)")).toEqual({ op: "≤", value: 1.5 });
    expect(goalOf("adapter-koa req/s")).toBeUndefined();
  });
});

describe("panelsOf", () => {
  it("groups figures by the unit their names carry, ratios first, and drops non-numbers", () => {
    const panels = panelsOf({ "express-static req/s": 15000, "adapter-express req/s": 12000, "feed p50 (ms)": 0.4, "ratio (goal ≥ 0.8)": 0.8, "seed 10000 events (s)": 2, note: "x", odd: 3 });
    expect(panels.map((p) => [p.title, p.bars.map((b) => b.label)])).toEqual([
      ["ratios (×)", ["ratio (goal ≥ 0.8)"]],
      ["requests per second", ["express-static req/s", "adapter-express req/s"]],
      ["milliseconds", ["feed p50 (ms)"]],
      ["seconds", ["seed 10000 events (s)"]],
      ["other", ["odd"]],
    ]);
  });
});

describe("renderChart", () => {
  it("draws a bar per figure, a goal marker, and marks a missed goal in red", () => {
    const svg = renderChart("http-serving", "2026-11-24", panelsOf({ "a / b (goal ≥ 0.8)": 0.5, "c / d (goal ≥ 0.5)": 0.9, "x req/s": 100 }));
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(3);
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(2);
    expect(svg.match(/fill="#dc2626"/g)).toHaveLength(1);
    expect(svg).toContain("a / b (goal ≥ 0.8)");
  });

  it("escapes markup in names", () => {
    expect(renderChart("t", "s", panelsOf({ "<b> & req/s": 1 }))).toContain("&lt;b&gt; &amp; req/s");
  });
});

describe("label column", () => {
  /** The label column's right edge (labels end there, right-aligned) and the labels' widths. */
  const layout = (svg: string) => {
    const rect = /<rect x="([0-9.]+)" y=/.exec(svg);
    const labels = [...svg.matchAll(/text-anchor="end">([^<]*)</g)].map((m) => m[1] ?? "");
    return { column: Number(rect?.[1]), labels };
  };

  it("is as wide as the longest label, so none starts left of the chart (no clipping)", () => {
    const long = "1000000 project, issues only, page 50 via keyset p99 with the label filter (ms)";
    const { column } = layout(renderChart("t", "s", panelsOf({ [long]: 1, "short (ms)": 2 })));
    expect(column - 8 - labelWidthOf(long)).toBeGreaterThanOrEqual(0);
  });

  it("fits every label of the stored benchmark runs (docs/bench/results.json)", () => {
    const runs = JSON.parse(readFileSync(join(import.meta.dirname, "..", "docs", "bench", "results.json"), "utf8")) as Record<string, { figures: Record<string, unknown> }>;
    for (const [name, run] of Object.entries(runs)) {
      const { column, labels } = layout(renderChart(name, "s", panelsOf(run.figures)));
      for (const label of labels) expect(column - 8 - labelWidthOf(label), `${name}: ${label}`).toBeGreaterThanOrEqual(0);
    }
  });

  it("estimates wide glyphs wider than narrow ones", () => {
    expect(labelWidthOf("MMMM")).toBeGreaterThan(labelWidthOf("iiii"));
    expect(labelWidthOf("")).toBe(0);
  });
});
