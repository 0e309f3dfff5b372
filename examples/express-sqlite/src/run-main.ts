/**
 * Test support: runs main.ts in a child process the way `pnpm start` does (tsx with the
 * `@forgekit/source` condition), with PORT=0 and the SQLite database under a data folder of the
 * caller's choosing, waits for the banner, and reads the demo tokens from the demo-tokens.json the
 * seed writes next to the database.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { databaseTarget, demoTokensFile } from "@forgekit/cli";

export interface RunningMain {
  /** `http://localhost:<port>`, as the banner prints it. */
  baseUrl: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** The demo user's personal access token, from demo-tokens.json. */
  token(username: string): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /**
   * SIGTERM, then resolves if main.ts exited 0; otherwise rejects with the exit code and the last of
   * what it printed (a failing afterAll keeps no message in Vitest's JSON report, so the error itself
   * must say why the shutdown was not clean).
   */
  stopCleanly(): Promise<void>;
  /** SIGKILL (a crash: nothing runs after it), then the exit code. */
  kill(): Promise<number | null>;
}

/** main.ts as a child process: everything it printed so far, and its exit code once it exits. */
export interface MainProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns main.ts as `pnpm start` does, in `dataDir` with its database at `<dataDir>/forgekit.db`,
 * PORT=0 and `env` on top of this process's environment.
 */
export function spawnMain(dataDir: string, env: Record<string, string> = {}): MainProcess {
  mkdirSync(dataDir, { recursive: true });
  // `node --import tsx`, as `pnpm start` runs it, not the tsx CLI: the CLI is a second process that
  // relays SIGTERM and SIGKILLs main.ts (exit 143) when main.ts does not confirm the signal within
  // 30 ms, which a loaded machine misses (seen in CI), so a clean shutdown would not be tested.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, "--conditions=@forgekit/source", join(import.meta.dirname, "main.ts")], {
    cwd: dataDir,
    env: { ...process.env, PORT: "0", DATABASE_URL: join(dataDir, "forgekit.db"), FORGEKIT_BASE_URL: "", ...env }, // "" = unset
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
  });
  return { child, output: () => output, exited };
}

/** Starts main.ts with its database at `<dataDir>/forgekit.db`; rejects when no banner shows up within `timeoutMs`. */
export async function runMain(dataDir: string, timeoutMs = 150_000): Promise<RunningMain> {
  const database = join(dataDir, "forgekit.db");
  const { child, output, exited } = spawnMain(dataDir);
  let done = false;
  void exited.then(() => (done = true));

  const started = Date.now();
  while (!/Try:[\s\S]*git clone/.test(output())) {
    if (done || Date.now() - started > timeoutMs) {
      child.kill("SIGTERM");
      throw new Error(`main.ts printed no banner (${done ? "it exited" : `${timeoutMs} ms`}):\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const baseUrl = /serving (http:\/\/localhost:\d+)\/api\/v4/.exec(output())?.[1];
  if (baseUrl === undefined) {
    child.kill("SIGTERM");
    throw new Error(`the banner names no URL:\n${output()}`);
  }

  const stop = async (): Promise<number | null> => {
    if (!done) child.kill("SIGTERM");
    return exited;
  };
  const target = databaseTarget(database, dataDir);
  const file = JSON.parse(readFileSync(demoTokensFile(target, dataDir), "utf8")) as { databases: Record<string, { tokens: Record<string, { token: string }> }> };
  const tokens = file.databases[target.kind === "sqlite" ? target.path : ""]?.tokens ?? {};
  return {
    baseUrl,
    output,
    token: (username) => {
      const token = tokens[username]?.token;
      if (token === undefined) throw new Error(`demo-tokens.json has no token for ${username}`);
      return token;
    },
    stop,
    stopCleanly: async () => {
      const code = await stop();
      if (code !== 0) throw new Error(`main.ts exited ${code} on SIGTERM; it printed (last 3,000 characters):\n${output().slice(-3000)}`);
    },
    kill: async () => {
      if (!done) child.kill("SIGKILL");
      return exited;
    },
  };
}
