#!/usr/bin/env node
/**
 * Renders docs/diagrams/*.puml to SVG next to them with PlantUML (Debian: `apt-get install
 * plantuml`), and stamps each SVG with the SHA-256 of its source. tools/diagrams.test.ts fails when
 * a source changed without its SVG being rendered again, so CI needs no PlantUML.
 * Usage: `node tools/render-diagrams.mjs` (all) or with file names.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./workspace-packages.mjs";

export const DIAGRAMS = join(root, "docs", "diagrams");

/** The stamp an SVG carries: `<!-- source-sha256: <hex> -->` right after the XML prolog. */
export const stampOf = (svg) => /<!-- source-sha256: ([0-9a-f]{64}) -->/.exec(svg)?.[1];

export const sourceHash = (source) => createHash("sha256").update(source).digest("hex");

function render(file) {
  const source = readFileSync(file, "utf8");
  const result = spawnSync("plantuml", ["-tsvg", "-pipe"], { input: source, encoding: "utf8" });
  if (result.error) throw new Error(`plantuml could not run (apt-get install plantuml): ${result.error.message}`);
  if (result.status !== 0) throw new Error(`plantuml failed on ${basename(file)}: ${result.stderr}`);
  const svg = result.stdout.replace(/^(<\?xml[^>]*\?>)?/, (prolog) => `${prolog}<!-- source-sha256: ${sourceHash(source)} -->`);
  const target = file.replace(/\.puml$/, ".svg");
  writeFileSync(target, svg);
  console.log(`rendered ${basename(target)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const named = process.argv.slice(2);
  const files = named.length > 0 ? named : readdirSync(DIAGRAMS).filter((f) => f.endsWith(".puml")).map((f) => join(DIAGRAMS, f));
  for (const file of files) render(file);
}
