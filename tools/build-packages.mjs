#!/usr/bin/env node
/**
 * Root `build` script: runs tsup (ESM + CJS + types, see each packages/<name>/tsup.config.ts) in
 * every publishable package (or those named as arguments, e.g. `core cli`), one after the other,
 * with the current node. Exits non-zero when any build fails.
 */
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import { binPath, root, runNode, workspacePackages } from "./workspace-packages.mjs";

/**
 * Builds every package (or those named in `only`); returns the names of those that failed.
 * @param {string[]} [only]
 */
export function buildPackages(only = []) {
  const tsup = binPath("tsup", "tsup");
  const failed = [];
  for (const pkg of workspacePackages(only)) {
    console.log(`\n── build ${pkg.name} (${relative(root, pkg.dir)})`);
    if (!runNode(tsup, [], pkg.dir)) failed.push(pkg.name);
  }
  return failed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const failed = buildPackages(process.argv.slice(2));
  if (failed.length > 0) {
    console.error(`\nbuild failed: ${failed.join(", ")}`);
    process.exit(1);
  }
  console.log("\nbuild: all packages built");
}
