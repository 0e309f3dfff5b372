#!/usr/bin/env node
/**
 * Root `check:packages` script (CI runs it): builds every package, then for each one
 *  1. `attw --pack <dir> --profile node16` — types resolve for ESM and CJS consumers under
 *     node16/nodenext and bundler resolution (node10 cannot see subpath exports and is not targeted);
 *     exports without a `require` condition are ESM-only and checked with `--profile esm-only`;
 *  2. `publint --pack npm <dir>` — the packed manifest and files are consistent;
 *  3. a smoke test in a plain `node` child process (so the `@forgekit/source` condition is off and
 *     the `import` / `require` conditions pick dist): `import()` and `require()` of every export
 *     (`import()` only for ESM-only ones),
 *     and `<bin> --help` for packages with a binary.
 * Arguments restrict it to the named packages (e.g. `core cli`). Exits non-zero when any check fails.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { buildPackages } from "./build-packages.mjs";
import { binPath, runNode, workspacePackages } from "./workspace-packages.mjs";

/** The export subpaths of `pkg` (package.json excluded), and those without a `require` condition. */
function exportSubpaths(pkg) {
  const exports = pkg.manifest.exports ?? {};
  const all = Object.keys(exports).filter((subpath) => !subpath.endsWith(".json"));
  const esmOnly = all.filter((subpath) => typeof exports[subpath] === "object" && !("require" in exports[subpath]));
  return { all, esmOnly };
}

/** The specifier a consumer imports: `name` for ".", `name/x` for "./x". */
const specifier = (pkg, subpath) => (subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);

/**
 * attw: the dual (ESM + CJS) entries under the node16 profile; ESM-only entries (e.g.
 * `@forgekit/core/testing`, which needs Vitest, itself ESM-only) under the esm-only profile.
 */
function attwChecks(attw, pkg) {
  const { all, esmOnly } = exportSubpaths(pkg);
  const common = ["--pack", pkg.dir, "--format", "table-flipped"];
  let ok = true;
  if (esmOnly.length < all.length) {
    ok = runNode(attw, [...common, "--profile", "node16", ...(esmOnly.length > 0 ? ["--exclude-entrypoints", ...esmOnly] : [])], pkg.dir);
  }
  if (esmOnly.length > 0) {
    ok = runNode(attw, [...common, "--profile", "esm-only", "--entrypoints", ...esmOnly], pkg.dir) && ok;
  }
  return ok;
}

const smokeScript = `
const { createRequire } = require("node:module");
const [dual, esmOnly] = JSON.parse(process.argv[1]);
const load = createRequire(process.cwd() + "/package.json");
(async () => {
  for (const specifier of esmOnly) {
    const esm = await import(specifier);
    console.log("  smoke " + specifier + ": import() ok (ESM only, " + Object.keys(esm).length + " exports)");
  }
  for (const specifier of dual) {
    const esm = await import(specifier);
    const cjs = load(specifier);
    const esmKeys = Object.keys(esm).filter((k) => k !== "default" && k !== "module.exports").sort();
    const cjsKeys = Object.keys(cjs).sort();
    if (esmKeys.join() !== cjsKeys.join()) {
      throw new Error(specifier + ": ESM exports [" + esmKeys + "] differ from CJS exports [" + cjsKeys + "]");
    }
    console.log("  smoke " + specifier + ": import() and require() ok (" + esmKeys.length + " exports)");
  }
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** import()s and require()s every export of `pkg` from its own directory (self-reference). */
function smoke(pkg) {
  const { all, esmOnly } = exportSubpaths(pkg);
  const dual = all.filter((subpath) => !esmOnly.includes(subpath));
  const specifiers = [dual.map((p) => specifier(pkg, p)), esmOnly.map((p) => specifier(pkg, p))];
  const result = spawnSync(process.execPath, ["-e", smokeScript, JSON.stringify(specifiers)], {
    cwd: pkg.dir,
    stdio: "inherit",
  });
  let ok = result.status === 0;
  const bins = typeof pkg.manifest.bin === "string" ? { [pkg.name]: pkg.manifest.bin } : (pkg.manifest.bin ?? {});
  for (const [name, target] of Object.entries(bins)) {
    const run = spawnSync(process.execPath, [join(pkg.dir, target), "--help"], { cwd: pkg.dir, encoding: "utf8" });
    const passed = run.status === 0 && run.stdout.length > 0;
    console.log(`  smoke bin ${name} --help: ${passed ? "ok" : `failed (exit ${run.status})\n${run.stderr}`}`);
    ok &&= passed;
  }
  return ok;
}

const only = process.argv.slice(2);
const failedBuilds = buildPackages(only);
if (failedBuilds.length > 0) {
  console.error(`\ncheck:packages: build failed for ${failedBuilds.join(", ")}`);
  process.exit(1);
}

const attw = binPath("@arethetypeswrong/cli", "attw");
const publint = binPath("publint", "publint");
const failures = [];
for (const pkg of workspacePackages(only)) {
  console.log(`\n── check ${pkg.name}`);
  if (!attwChecks(attw, pkg)) failures.push(`${pkg.name}: attw`);
  if (!runNode(publint, ["run", "--pack", "npm", "--strict", pkg.dir], pkg.dir)) failures.push(`${pkg.name}: publint`);
  if (!smoke(pkg)) failures.push(`${pkg.name}: smoke`);
}

if (failures.length > 0) {
  console.error(`\ncheck:packages failed:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("\ncheck:packages: attw, publint and the dist smoke test pass for every package");
