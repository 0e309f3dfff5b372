/** Whether a workspace package's build is older than what it is built from (tools/forgekit.mjs). */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Newest modification time (ms) under `dir`, test files excluded. */
export function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether the package's build is missing or older than its sources, manifest or build config. */
export function stale(dir) {
  const built = join(dir, "dist", "index.js");
  if (!existsSync(built)) return true;
  const inputs = Math.max(newestSource(join(dir, "src")), statSync(join(dir, "package.json")).mtimeMs, statSync(join(dir, "tsup.config.ts")).mtimeMs);
  return inputs > statSync(built).mtimeMs;
}

