/** Test support (not part of the package): runs the CLI in-process against a temporary directory. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CliIo } from "./io.js";
import { runCli } from "./run-cli.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json<T = Record<string, unknown>>(): T;
}

/** A temporary working directory with an SQLite database in it, and a runner bound to both. */
export interface CliSandbox {
  dir: string;
  database: string;
  /** Runs `forgekit --database <sandbox db> ...argv`. */
  run(...argv: string[]): Promise<CliRun>;
  /** Runs `forgekit ...argv` with exactly these environment variables (no --database added). */
  runRaw(argv: string[], env?: Record<string, string>): Promise<CliRun>;
  cleanup(): void;
}

export function cliSandbox(): CliSandbox {
  const dir = mkdtempSync(join(tmpdir(), "forgekit-cli-"));
  const database = join(dir, "forgekit.db");
  const runRaw = async (argv: string[], env: Record<string, string> = {}): Promise<CliRun> => {
    let stdout = "";
    let stderr = "";
    const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env, cwd: dir };
    const code = await runCli(argv, io);
    return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
  };
  return {
    dir,
    database,
    run: (...argv) => runRaw(["--database", database, ...argv]),
    runRaw,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
