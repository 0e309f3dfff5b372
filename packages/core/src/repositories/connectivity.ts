/**
 * The connectivity check of a repository (git's own after a fetch, `check_connected`): `git
 * rev-list --objects --all --quiet` fails unless every object reachable from HEAD and every ref is
 * present — commits, trees and tags parsed, blobs looked up. A small repository is first walked in
 * this process or a file worker (repository-reading.ts); git checks the rest, and decides every failure.
 *
 * Checks run in a few long-lived `sh` processes, each reading one git directory per line, running
 * git for it and printing its exit code. Forking the host's Node process is what a git command
 * costs most on a busy server (several ms of kernel time per spawn for a few hundred MB process,
 * during which the event loop stands still; a shell forks for a fraction of that), so a bulk
 * storage move forks Node a handful of times in all instead of once per repository. A shell with
 * no work for a second exits. A repository whose check fails is checked again on its own with
 * `runGit`, whose error (git's message) is the answer; so is every check a shell could not answer
 * (it died or timed out), a path a line cannot carry, and every check on Windows (no `sh`).
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { gitEnvironment, runGit, type GitCommandOptions } from "./git-command.js";
import { reading } from "./repository-reading.js";

/** The git arguments of the check of one repository. */
export const connectivityArgs = (gitDir: string): string[] => ["--no-replace-objects", `--git-dir=${gitDir}`, "rev-list", "--objects", "--all", "--quiet"];

/** `$1` is git; then one git directory per line on stdin, one exit code per line on stdout. */
const SCRIPT = 'g=$1; while IFS= read -r d; do "$g" --no-replace-objects --git-dir="$d" rev-list --objects --all --quiet >/dev/null 2>&1; echo $?; done';

/** How long a shell without work stays (ms). */
const IDLE_MS = 1_000;

interface Pending {
  gitDir: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Checks repositories' connectivity. */
export interface ConnectivityChecker {
  /** Resolves when the repository is whole; rejects with git's failure otherwise. */
  check(gitDir: string): Promise<void>;
}

/** Options of {@link connectivityChecker} beyond how git runs. */
export interface ConnectivityCheckerOptions {
  /** The platform (default this process's): `win32` checks each repository with its own git process. */
  platform?: NodeJS.Platform;
  /** Most shells at once (default 4): checks beyond that queue behind the shell with the fewest. */
  shells?: number;
  /**
   * Small repositories are first checked without git (repository-reading.ts), and only a
   * repository that check does not pass goes to git. Default: on this thread; a function: that
   * check (the storage runs it in a file worker); false: git checks every repository.
   */
  inProcess?: boolean | ((gitDir: string) => Promise<"connected" | "ask-git">);
}

/** A checker running git as `options` says (binary, timeout per repository, HOME). */
export function connectivityChecker(options: GitCommandOptions, checkerOptions: ConnectivityCheckerOptions = {}): ConnectivityChecker {
  const platform = checkerOptions.platform ?? process.platform;
  const maxShells = Math.max(1, checkerOptions.shells ?? 4);
  const option = checkerOptions.inProcess ?? true;
  const inProcess = typeof option === "function" ? option : option ? async (gitDir: string) => reading.connectivity(gitDir) : undefined;
  const alone = (item: Pending) => runGit(options, connectivityArgs(item.gitDir)).then(() => item.resolve(), item.reject);
  const shells = new Set<CheckShell>();

  const shellFor = (): CheckShell | undefined => {
    let best: CheckShell | undefined;
    for (const shell of shells) if (best === undefined || shell.load < best.load) best = shell;
    if (best !== undefined && (best.load === 0 || shells.size >= maxShells)) return best;
    const shell = startShell(options, alone, () => shells.delete(shell as CheckShell));
    if (shell === undefined) return best;
    shells.add(shell);
    return shell;
  };

  return {
    async check(gitDir) {
      // A failed or unavailable walk is no answer: git decides.
      if (inProcess !== undefined && (await inProcess(gitDir).catch(() => "ask-git")) === "connected") return;
      return new Promise<void>((resolve, reject) => {
        const item = { gitDir, resolve, reject };
        // A line cannot carry a line break (nor the OS a NUL): git alone says what it makes of such a path.
        const shell = platform === "win32" || /[\n\r\0]/.test(gitDir) ? undefined : shellFor();
        if (shell === undefined) void alone(item);
        else shell.send(item);
      });
    },
  };
}

/** One long-lived shell and the checks it has been sent, answered in order. */
interface CheckShell {
  readonly load: number;
  send(item: Pending): void;
}

function startShell(options: GitCommandOptions, alone: (item: Pending) => Promise<void>, ended: () => void): CheckShell | undefined {
  let child: ChildProcessByStdio<Writable, Readable, null>;
  try {
    child = spawn("sh", ["-c", SCRIPT, "forgekit-connectivity", options.binary], { env: gitEnvironment(options.home), stdio: ["pipe", "pipe", "ignore"], shell: false });
  } catch {
    return undefined;
  }
  const pending: Pending[] = [];
  let buffered = "";
  let alive = true;
  /** Still taking checks: false once idle or ended (an ended shell is never listed). */
  let listed = true;
  let idle: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;

  /** The head check may run `timeoutMs`; a shell that overruns it is killed and its checks re-run alone. */
  const armDeadline = () => {
    clearTimeout(deadline);
    deadline = pending.length === 0 ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  };
  const armIdle = () => {
    clearTimeout(idle);
    if (pending.length > 0) return;
    idle = setTimeout(() => {
      // Off the list first, so no check is sent to a shell that is on its way out.
      unlist();
      child.stdin.end();
    }, IDLE_MS);
    idle.unref();
  };
  const unlist = () => {
    if (listed) ended();
    listed = false;
  };
  const end = () => {
    if (!alive) return;
    alive = false;
    clearTimeout(idle);
    clearTimeout(deadline);
    unlist();
    // The shell could not answer these: each repository alone, with git's own message.
    for (const item of pending.splice(0)) void alone(item);
  };

  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const item = pending.shift();
      if (item === undefined || !/^\d+$/.test(line)) {
        // Not what the script prints: trust nothing more from this shell.
        if (item !== undefined) pending.unshift(item);
        child.kill("SIGKILL");
        return;
      }
      if (line === "0") item.resolve();
      else void alone(item);
    }
    armDeadline();
    armIdle();
  });
  child.on("error", end);
  child.on("close", end);
  child.stdin.on("error", () => child.kill("SIGKILL"));

  return {
    get load() {
      return pending.length;
    },
    send(item) {
      if (!listed) {
        void alone(item);
        return;
      }
      pending.push(item);
      if (pending.length === 1) armDeadline();
      clearTimeout(idle);
      child.stdin.write(`${item.gitDir}\n`);
    },
  };
}
