/**
 * Running one bounded command (git) to completion: stdin written at once, stdout kept up to a
 * limit (past it the process is killed and the result says `tooLarge`), the first 4 KiB of stderr,
 * and a timeout that kills the process. {@link runChild} runs in this process or, sent as source,
 * inside the spawn host (spawn-host.ts); so it may use only its arguments and Node's globals.
 */
import type { ChildProcess, spawn as Spawn } from "node:child_process";

/** What to run. */
export interface ChildRequest {
  binary: string;
  args: readonly string[];
  /** The whole environment of the command. */
  env: Record<string, string>;
  input?: Uint8Array | undefined;
  /** Working directory (default: the runner's own). */
  cwd?: string | undefined;
  timeoutMs: number;
  maxStdoutBytes: number;
}

/** How it ended. */
export type ChildOutcome =
  | { kind: "exited"; code: number | null; signal: string | null; stdout: Uint8Array; stderr: string; tooLarge: boolean }
  | { kind: "timed_out" }
  /** The command never ran (no such binary, no permission) or its runner went away. */
  | { kind: "not_started"; message: string };

/**
 * Runs `request` and calls `done` once with the outcome; returns the process (null when it could
 * not even be created) so its owner can kill it.
 */
export function runChild(spawn: typeof Spawn, request: ChildRequest, done: (outcome: ChildOutcome) => void): ChildProcess | null {
  const stderrKept = 4096;
  let settled = false;
  const finish = (outcome: ChildOutcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done(outcome);
  };
  let child: ChildProcess;
  try {
    child = spawn(request.binary, [...request.args], { env: request.env, cwd: request.cwd, stdio: ["pipe", "pipe", "pipe"], shell: false });
  } catch (error) {
    settled = true;
    done({ kind: "not_started", message: error instanceof Error ? error.message : String(error) });
    return null;
  }
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = "";
  let tooLarge = false;
  const timer = setTimeout(() => {
    child.kill("SIGKILL");
    finish({ kind: "timed_out" });
  }, request.timeoutMs);
  child.stdout?.on("data", (chunk: Buffer) => {
    if (tooLarge) return;
    const room = request.maxStdoutBytes - stdoutBytes;
    if (chunk.length > room) {
      stdout.push(chunk.subarray(0, room));
      stdoutBytes += room;
      tooLarge = true;
      child.kill("SIGKILL");
      return;
    }
    stdout.push(chunk);
    stdoutBytes += chunk.length;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < stderrKept) stderr += chunk.toString("utf8").slice(0, stderrKept - stderr.length);
  });
  child.on("error", (error) => finish({ kind: "not_started", message: error.message }));
  // A command that exits before reading all of stdin makes the pipe fail with EPIPE: its exit code says why.
  child.stdin?.on("error", () => undefined);
  child.on("close", (code, signal) => finish({ kind: "exited", code, signal, stdout: Buffer.concat(stdout), stderr: stderr.trim(), tooLarge }));
  child.stdin?.end(request.input);
  return child;
}
