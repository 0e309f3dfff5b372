/**
 * Shared helpers of the root build/check scripts: the publishable workspace packages and how to run
 * a package's own CLI binary with the current node (no global pnpm or npx needed).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the workspace root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The publishable packages under packages/ (not private), core first so that dependants find its
 * dist when a later step imports them.
 * With `only` (package names or directory names), just those.
 * @param {string[]} [only]
 * @returns {{ dir: string, name: string, manifest: Record<string, any> }[]}
 */
export function workspacePackages(only = []) {
  const packagesDir = join(root, "packages");
  const found = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, "package.json")))
    .map((entry) => {
      const dir = join(packagesDir, entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      return { dir, name: manifest.name, manifest };
    })
    .filter((pkg) => pkg.manifest.private !== true)
    .filter((pkg) => only.length === 0 || only.some((o) => o === pkg.name || pkg.dir.endsWith(`/${o}`)));
  if (only.length > 0 && found.length !== only.length) throw new Error(`unknown package in: ${only.join(", ")}`);
  return found.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function rank(name) {
  return name === "@forgekit/core" ? 0 : 1;
}

/**
 * Absolute path of the JS file behind the binary `bin` of the installed package `pkg`.
 * @param {string} pkg
 * @param {string} bin
 */
export function binPath(pkg, bin) {
  // Root dev dependencies are linked under node_modules/ (some, like publint, do not export package.json).
  const manifestPath = join(root, "node_modules", pkg, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const target = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[bin];
  if (typeof target !== "string") throw new Error(`${pkg} has no binary ${bin}`);
  return join(dirname(manifestPath), target);
}

/**
 * Runs `node <script> ...args` in `cwd`, streaming its output; returns whether it exited 0.
 * @param {string} script
 * @param {string[]} args
 * @param {string} cwd
 */
export function runNode(script, args, cwd) {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status === 0;
}

/**
 * How to run pnpm from a root script: the pnpm that runs the script (`npm_execpath`), else the
 * version the README uses through npx (no global pnpm is assumed).
 * @returns {string[]}
 */
export function pnpmCommand() {
  const execPath = process.env.npm_execpath ?? "";
  if (/pnpm/.test(execPath)) return execPath.endsWith(".js") || execPath.endsWith(".cjs") ? [process.execPath, execPath] : [execPath];
  return ["npx", "-y", "pnpm@10.34.8"];
}
