/** The floors of core and the picture of them (docs/architecture.md#floors-of-core) hold for the sources as they are. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, CONFIG_FILE, FLOORS, floorOf, importGraph } from "./eslint-rules/floors.js";
import { CORE_SRC, coreParts, DOC_PATH, renderSvg, renderTable, SVG_PATH, withTable } from "./import-graph.mjs";
import { root } from "./workspace-packages.mjs";

const packages = readdirSync(join(root, "packages")).filter((name) => existsSync(join(root, "packages", name, "src")));

describe("import graph", () => {
  it.each(packages)("packages/%s/src has no import circle (import type and re-exports included)", (name) => {
    const src = join(root, "packages", name, "src");
    expect(circles(importGraph(src)).map((c) => c.map((f) => relative(src, f)))).toEqual([]);
  });

  it("no import in core goes from a lower floor to a higher one (config.ts only for its types, which lint checks)", () => {
    const rel = (p: string) => relative(CORE_SRC, p).split(sep).join("/");
    const upward: string[] = [];
    for (const [file, targets] of importGraph(CORE_SRC)) {
      for (const target of targets) {
        const from = floorOf(rel(file));
        const to = floorOf(rel(target));
        if (FLOORS.indexOf(to) > FLOORS.indexOf(from) && !(rel(target) === CONFIG_FILE && from !== "domain" && from !== "ports")) upward.push(`${rel(file)} → ${rel(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("the domain floor imports nothing of forgekit but the domain floor", () => {
    const rel = (p: string) => relative(CORE_SRC, p).split(sep).join("/");
    const domain = [...importGraph(CORE_SRC)].filter(([file]) => floorOf(rel(file)) === "domain");
    expect(domain.length).toBeGreaterThan(10);
    expect(domain.flatMap(([file, targets]) => targets.filter((t) => floorOf(rel(t)) !== "domain").map((t) => `${rel(file)} → ${rel(t)}`))).toEqual([]);
  });

  it("docs/diagrams/core-floors.svg and the table in docs/architecture.md are current (run node tools/import-graph.mjs)", () => {
    const graph = coreParts();
    expect(graph.parts.length).toBeGreaterThan(20);
    expect(readFileSync(SVG_PATH, "utf8")).toBe(renderSvg(graph));
    const doc = readFileSync(DOC_PATH, "utf8");
    expect(doc).toBe(withTable(doc, renderTable(graph)));
  });
});
