/** docs/diagrams: every PlantUML source has its rendered SVG, rendered from this very source. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGRAMS, sourceHash, stampOf } from "./render-diagrams.mjs";

const sources = readdirSync(DIAGRAMS).filter((f) => f.endsWith(".puml"));

describe("docs/diagrams", () => {
  it("has diagrams", () => {
    expect(sources.length).toBeGreaterThan(0);
  });

  it.each(sources)("%s is rendered and up to date (run `node tools/render-diagrams.mjs` after editing it)", (name) => {
    const svgPath = join(DIAGRAMS, name.replace(/\.puml$/, ".svg"));
    expect(existsSync(svgPath)).toBe(true);
    const svg = readFileSync(svgPath, "utf8");
    expect(svg).toContain("<svg");
    expect(stampOf(svg)).toBe(sourceHash(readFileSync(join(DIAGRAMS, name), "utf8")));
  });
});
