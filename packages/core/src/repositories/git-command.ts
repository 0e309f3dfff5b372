/**
 * Runs one `git` command: arguments as an array (no shell ever parses them), a fixed environment
 * that ignores every user and system configuration, stdin from memory, and a timeout that kills.
 */
import { runCommand } from "./spawn-host.js";
import { repositoryStorageFailure } from "./storage-failure.js";

/** How git commands run. */
export interface GitCommandOptions {
  /** The git executable (default `git` on PATH). */
  binary: string;
  /** Longest a command may run before it is killed, in ms. */
  timeoutMs: number;
  /** HOME for git (no `~/.gitconfig` of the host's user is read: GIT_CONFIG_GLOBAL is /dev/null too). */
  home: string;
}

/** Largest stdout/stderr kept from one command; refs listings of huge repositories are the largest. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * The whole environment git sees. Nothing is inherited but PATH (to find helpers): GIT_DIR,
 * GIT_WORK_TREE or a user's `core.hooksPath` from the host process must not steer a command.
 */
export function gitEnvironment(home: string): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "/bin/false",
    LC_ALL: "C",
  };
}

/**
 * `-c` options (before the git command) that make git check every object it receives from outside
 * — `receive-pack` for pushes, `fetch` for imports — with `fsck --strict`: a tree holding `.git`,
 * `.GIT` or an NTFS/HFS spelling of it (CVE-2014-9390), a malformed tree or commit, a dangerous
 * `.gitmodules`. A refused pack is not kept (receive-pack's quarantine, fetch's temporary pack) and
 * no ref moves. Passed on the command line rather than written to repository config, so
 * repositories made before, and any whose config says otherwise, are covered too.
 */
export const CHECK_RECEIVED_OBJECTS: readonly string[] = Object.freeze(["-c", "transfer.fsckObjects=true", "-c", "receive.fsckObjects=true", "-c", "fetch.fsckObjects=true"]);

/** Runs `git <args>` (through the spawn host, spawn-host.ts); resolves stdout, rejects with a `failed` RepositoryStorageFailure saying what failed. */
export async function runGit(options: GitCommandOptions, args: readonly string[], input?: Uint8Array): Promise<string> {
  const failed = (message: string) => repositoryStorageFailure("failed", `git ${args[0] ?? ""} ${message}`);
  const outcome = await runCommand({ binary: options.binary, args, env: gitEnvironment(options.home), input, timeoutMs: options.timeoutMs, maxStdoutBytes: MAX_OUTPUT_BYTES });
  if (outcome.kind === "timed_out") throw failed(`timed out after ${options.timeoutMs} ms`);
  if (outcome.kind === "not_started") throw failed(`could not run ${options.binary}: ${outcome.message}`);
  if (outcome.tooLarge) throw failed(`printed more than ${MAX_OUTPUT_BYTES} bytes`);
  if (outcome.code !== 0) throw failed(`exited with ${outcome.code ?? outcome.signal ?? "?"}${outcome.stderr === "" ? "" : `: ${outcome.stderr.slice(0, 2000)}`}`);
  return Buffer.from(outcome.stdout).toString("utf8");
}
