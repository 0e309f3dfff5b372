/**
 * Runs one `git` command and hands back its exit code and output as bytes, bounded: for callers
 * that read objects (blobs may be binary) or must tell "git said no" (a missing ref, a lost
 * compare-and-set) from "git failed". Like `runGit`, arguments never pass through a shell, the
 * environment ignores every user and system configuration, and a timeout kills the process.
 */
import { spawn } from "node:child_process";
import { gitEnvironment } from "./git-command.js";
import { repositoryStorageFailure } from "./storage-failure.js";

/** Options of {@link execGit}. */
export interface GitExecOptions {
  /** The git executable (default `git`). */
  binary?: string;
  /** Longest the command may run, in ms. */
  timeoutMs: number;
  /** HOME for git (no user configuration is read either way). */
  home: string;
  /** Most stdout bytes kept; more is `tooLarge` (the process is killed). */
  maxOutputBytes: number;
  /** Extra environment (e.g. GIT_INDEX_FILE, GIT_AUTHOR_NAME); never user-controlled names. */
  env?: Record<string, string>;
  /** Bytes written to stdin. */
  input?: Uint8Array;
}

/** What a finished command produced. */
export interface GitExecResult {
  code: number;
  stdout: Buffer;
  /** The first 4 KiB of stderr, for logs and error messages. */
  stderr: string;
  /** stdout went past `maxOutputBytes` (the command was stopped; `stdout` holds what came first). */
  tooLarge: boolean;
}

const STDERR_KEPT = 4096;

/**
 * Runs `git <args>`; resolves for any exit code (and for `tooLarge`), rejects with a `failed`
 * RepositoryStorageFailure when git cannot start or times out. Pathspecs are always literal
 * (`GIT_LITERAL_PATHSPECS`), so a file name like `:(glob)*` names only itself.
 */
export function execGit(options: GitExecOptions, args: readonly string[]): Promise<GitExecResult> {
  return new Promise((resolve, reject) => {
    const env = { ...gitEnvironment(options.home), GIT_LITERAL_PATHSPECS: "1", GIT_NO_REPLACE_OBJECTS: "1", ...options.env };
    const child = spawn(options.binary ?? "git", args, { env, stdio: ["pipe", "pipe", "pipe"], shell: false });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let tooLarge = false;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill("SIGKILL");
      reject(repositoryStorageFailure("failed", `git ${args[0] ?? ""} timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      const room = options.maxOutputBytes - stdoutBytes;
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
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString("utf8").slice(0, STDERR_KEPT - stderr.length);
    });
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(repositoryStorageFailure("failed", `could not run git: ${error.message}`, error));
    });
    // A command that exits before reading all of stdin makes the pipe fail with EPIPE: its exit code says why.
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout: Buffer.concat(stdout), stderr: stderr.trim(), tooLarge });
    });
    child.stdin.end(options.input);
  });
}
