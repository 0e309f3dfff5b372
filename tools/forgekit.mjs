#!/usr/bin/env node
/**
 * Root `forgekit` script (`npx -y pnpm@10.34.8 forgekit <command>`): runs the built CLI, so a
 * command takes a fraction of a second instead of transpiling the sources on every call. Before
 * that it rebuilds (tsup) whichever of the CLI's workspace packages has sources newer than its
 * build — on a fresh clone all of them, once (about a minute). Build output goes to stderr, so
 * `--json` output on stdout stays clean.
 */
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { stale } from "./stale-build.mjs";
import { binPath, root } from "./workspace-packages.mjs";

/** The CLI and the workspace packages it runs on, dependencies first. */
const PACKAGES = ["core", "store-kysely", "cli"];

const tsup = binPath("tsup", "tsup");
let rebuilt = false;
for (const name of PACKAGES) {
  const dir = join(root, "packages", name);
  // A dependency rebuilt means its dependants' bundled types and chunks may be stale too.
  if (!rebuilt && !stale(dir)) continue;
  process.stderr.write(`forgekit: building ${relative(root, dir)} (sources changed since the last build)…\n`);
  // JS only: declarations are for publishing (check:packages builds them), and a type error in work
  // in progress must not stop the command, as running from source did not.
  const result = spawnSync(process.execPath, [tsup, "--silent"], { cwd: dir, stdio: ["ignore", process.stderr, process.stderr], env: { ...process.env, FORGEKIT_BUILD_JS_ONLY: "1" } });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(`forgekit: the build of ${relative(root, dir)} failed (see above)\n`);
    process.exit(1);
  }
  rebuilt = true;
}

// The built binary reads process.argv.slice(2): the same arguments this script got.
await import(pathToFileURL(join(root, "packages", "cli", "bin", "forgekit.mjs")).href);
