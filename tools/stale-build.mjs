/** Whether a workspace package's build is older than what it is built from, and rebuilding the stale ones (tools/forgekit.mjs, bench/imports.ts). */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { binPath, root } from "./workspace-packages.mjs";

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


/**
 * Rebuilds (tsup, JS only) each of `names` (directories under packages/, dependencies first) whose
 * build is stale, and every one after a rebuilt one (a dependency rebuilt means its dependants'
 * bundled chunks may be stale too). Build output goes to stderr. Returns an error message when a
 * build failed.
 * @param {string[]} names
 * @returns {string | undefined}
 */
export function ensureBuilt(names) {
  const tsup = binPath("tsup", "tsup");
  let rebuilt = false;
  for (const name of names) {
    const dir = join(root, "packages", name);
    if (!rebuilt && !stale(dir)) continue;
    process.stderr.write(`forgekit: building ${relative(root, dir)} (sources changed since the last build)…\n`);
    // JS only: declarations are for publishing (check:packages builds them), and a type error in
    // work in progress must not stop a command, as running from source did not.
    const result = spawnSync(process.execPath, [tsup, "--silent"], { cwd: dir, stdio: ["ignore", process.stderr, process.stderr], env: { ...process.env, FORGEKIT_BUILD_JS_ONLY: "1" } });
    if (result.error) throw result.error;
    if (result.status !== 0) return `the build of ${relative(root, dir)} failed (see above)`;
    rebuilt = true;
  }
  return undefined;
}
