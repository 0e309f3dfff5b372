/**
 * Runs one `git` command and hands back its exit code and output as bytes, bounded: for callers
 * that read objects (blobs may be binary) or must tell "git said no" (a missing ref, a lost
 * compare-and-set) from "git failed". Like `runGit`, arguments never pass through a shell, the
 * environment ignores every user and system configuration, and a timeout kills the process.
 */
import { gitEnvironment } from "./git-command.js";
import { runCommand } from "./spawn-host.js";
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

/**
 * Runs `git <args>` (through the spawn host, spawn-host.ts); resolves for any exit code (and for
 * `tooLarge`), rejects with a `failed` RepositoryStorageFailure when git cannot start or times out.
 * Pathspecs are always literal (`GIT_LITERAL_PATHSPECS`), so a file name like `:(glob)*` names only itself.
 */
export async function execGit(options: GitExecOptions, args: readonly string[]): Promise<GitExecResult> {
  const env = { ...gitEnvironment(options.home), GIT_LITERAL_PATHSPECS: "1", GIT_NO_REPLACE_OBJECTS: "1", ...options.env };
  const outcome = await runCommand({ binary: options.binary ?? "git", args, env, input: options.input, timeoutMs: options.timeoutMs, maxStdoutBytes: options.maxOutputBytes });
  if (outcome.kind === "timed_out") throw repositoryStorageFailure("failed", `git ${args[0] ?? ""} timed out after ${options.timeoutMs} ms`);
  if (outcome.kind === "not_started") throw repositoryStorageFailure("failed", `could not run git: ${outcome.message}`);
  return { code: outcome.code ?? -1, stdout: outcome.stdout as Buffer, stderr: outcome.stderr, tooLarge: outcome.tooLarge };
}
