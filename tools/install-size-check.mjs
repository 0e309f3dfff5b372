/**
 * What a host's `npm install` of forgekit costs (issue 24 "a lean core"): the packed core,
 * store-kysely and adapter-express are installed with plain npm into a fresh folder — no SQL driver
 * (they are optional peers), npm installs the required peers (express, kysely, neverthrow) itself —
 * and the check fails when npm warns `EBADENGINE` on the running Node (every supported Node runs it:
 * .ci/run runs check:packages on Node 22 and 24 too) or the installed node_modules grows past
 * {@link HOST_INSTALL_BUDGET_BYTES}. It prints the size and the largest packages.
 * Returns the names of the checks that failed.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The packages a host installs (and names in this check). */
export const HOST_INSTALL_PACKAGES = ["@forgekit/core", "@forgekit/store-kysely", "@forgekit/adapter-express"];

/**
 * The most bytes (apparent size) the install may take. Issue 24's goal is 15 MB; it is 16.1 MB (MiB,
 * as this check prints them) since core ships ESM only (it was ~19 MB with core's CommonJS copy): zod 5.9, kysely 3.2, core 1.6, and
 * 2.1 MB of a rollup binary that neverthrow 8.2.0 declares as an optional dependency (a host that
 * pins neverthrow 8.1 avoids it, and is then at 14 MB). A ratchet, rounded up a little: it keeps the
 * install from growing back (with @octokit/rest it was ~36 MB).
 */
export const HOST_INSTALL_BUDGET_BYTES = 17 * 1024 * 1024;

/** The apparent size of every file under `path` (symbolic links not followed). */
export function treeBytes(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  let total = 0;
  for (const entry of readdirSync(path)) total += treeBytes(join(path, entry));
  return total;
}

/** The packages under `node_modules` (scoped ones by full name) with their sizes, largest first. */
function packageSizes(nodeModules) {
  const sizes = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@") ? readdirSync(join(nodeModules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) sizes.push({ name, bytes: treeBytes(join(nodeModules, name)) });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes);
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/**
 * @param {{ name: string, tarball: string }[]} packed
 * @returns {string[]} failed checks
 */
export function checkHostInstall(packed) {
  const tarballs = HOST_INSTALL_PACKAGES.map((name) => packed.find((p) => p.name === name)?.tarball);
  if (tarballs.some((t) => t === undefined)) return [];
  const dir = mkdtempSync(join(tmpdir(), "forgekit-install-"));
  const failures = [];
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "forgekit-install-size", private: true, version: "0.0.0" }));
    console.log(`\n── host install on Node ${process.versions.node}: npm install ${HOST_INSTALL_PACKAGES.join(" ")}`);
    const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=warn", ...tarballs], { cwd: dir, encoding: "utf8" });
    const output = `${npm.stdout}${npm.stderr}`;
    if (npm.status !== 0) {
      console.error(`  npm install failed (exit ${npm.status})\n${output}`);
      return ["host install: npm install"];
    }
    const engine = output.split("\n").filter((line) => line.includes("EBADENGINE"));
    if (engine.length > 0) {
      console.error(`  npm warned EBADENGINE on Node ${process.versions.node}:\n  ${engine.join("\n  ")}`);
      failures.push(`host install: EBADENGINE on Node ${process.versions.node}`);
    }
    const sizes = packageSizes(join(dir, "node_modules"));
    const total = treeBytes(join(dir, "node_modules"));
    const over = total > HOST_INSTALL_BUDGET_BYTES;
    console.log(`  installed: ${sizes.length} packages, ${mb(total)} (budget ${mb(HOST_INSTALL_BUDGET_BYTES)})${over ? " — over budget" : ""}; largest: ${sizes.slice(0, 6).map((s) => `${s.name} ${mb(s.bytes)}`).join(", ")}`);
    if (over) failures.push(`host install: ${mb(total)} is over ${mb(HOST_INSTALL_BUDGET_BYTES)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}
