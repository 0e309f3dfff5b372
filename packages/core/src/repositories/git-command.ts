/**
 * Runs one `git` command: arguments as an array (no shell ever parses them), a fixed environment
 * that ignores every user and system configuration, stdin from memory, and a timeout that kills.
 */
import { spawn } from "node:child_process";
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
export function gitEnvironment(home: string): NodeJS.ProcessEnv {
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

/** Runs `git <args>`; resolves stdout, rejects with a `failed` RepositoryStorageFailure saying what failed. */
export function runGit(options: GitCommandOptions, args: readonly string[], input?: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.binary, args, { env: gitEnvironment(options.home), stdio: ["pipe", "pipe", "pipe"], shell: false });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (message: string, cause?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(repositoryStorageFailure("failed", `git ${args[0] ?? ""} ${message}`, cause));
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) fail(`printed more than ${MAX_OUTPUT_BYTES} bytes`);
      else into.push(chunk);
    };
    const timer = setTimeout(() => fail(`timed out after ${options.timeoutMs} ms`), options.timeoutMs);
    child.stdout.on("data", collect(stdout));
    child.stderr.on("data", collect(stderr));
    child.on("error", (error) => fail(`could not run ${options.binary}: ${error.message}`, error));
    // A command that exits before reading all of stdin makes the pipe fail with EPIPE: its exit code says why.
    child.stdin.on("error", () => undefined);
    child.on("close", (code, signal) => {
      if (settled) return;
      if (code === 0) {
        settled = true;
        clearTimeout(timer);
        resolve(Buffer.concat(stdout).toString("utf8"));
        return;
      }
      const detail = Buffer.concat(stderr).toString("utf8").trim().slice(0, 2000);
      fail(`exited with ${code ?? signal ?? "?"}${detail === "" ? "" : `: ${detail}`}`);
    });
    child.stdin.end(input);
  });
}
