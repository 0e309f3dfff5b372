/**
 * The connectivity check of a repository (git's own after a fetch, `check_connected`): `git
 * rev-list --objects --all --quiet` fails unless every object reachable from HEAD and every ref is
 * present — commits, trees and tags parsed, blobs looked up.
 *
 * Checks asked for in the same turn of the event loop run in ONE short-lived `sh` that runs git
 * for each repository in turn and prints its exit code. Forking the host's Node process is what a
 * git command costs most on a busy server (about 7 ms of kernel time per spawn for a 370 MB
 * process, against 0.3 ms for the shell), so a bulk storage move that checks many copies at once
 * forks Node once per batch instead of once per repository. A repository whose check fails is
 * checked again on its own with `runGit`, whose error (git's message) is the answer; so is every
 * repository of a batch whose shell could not run or answer (and on Windows, where there is no `sh`).
 */
import { spawn } from "node:child_process";
import { gitEnvironment, runGit, type GitCommandOptions } from "./git-command.js";

/** The git arguments of the check of one repository. */
export const connectivityArgs = (gitDir: string): string[] => ["--no-replace-objects", `--git-dir=${gitDir}`, "rev-list", "--objects", "--all", "--quiet"];

/** Most repositories one shell checks (the command line stays far below any ARG_MAX). */
const BATCH = 64;

/** `$1` is git, the rest are git directories; one exit code per line, in order. */
const SCRIPT = 'g=$1; shift; for d do "$g" --no-replace-objects --git-dir="$d" rev-list --objects --all --quiet >/dev/null 2>&1; echo $?; done';

interface Pending {
  gitDir: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Checks repositories' connectivity, batching the checks asked for together. */
export interface ConnectivityChecker {
  /** Resolves when the repository is whole; rejects with git's failure otherwise. */
  check(gitDir: string): Promise<void>;
}

/** A checker running git as `options` says (binary, timeout per repository, HOME). */
export function connectivityChecker(options: GitCommandOptions, platform: NodeJS.Platform = process.platform): ConnectivityChecker {
  let queue: Pending[] = [];
  const alone = (item: Pending) => runGit(options, connectivityArgs(item.gitDir)).then(() => item.resolve(), item.reject);

  const flush = () => {
    const items = queue;
    queue = [];
    for (let start = 0; start < items.length; start += BATCH) {
      const batch = items.slice(start, start + BATCH);
      // Never left waiting: anything unexpected rejects every check of the batch.
      runBatch(batch).catch((error: unknown) => batch.forEach((item) => item.reject(error)));
    }
  };

  const runBatch = async (items: Pending[]) => {
    if (items.length === 1 || platform === "win32") {
      await Promise.all(items.map(alone));
      return;
    }
    const codes = await shellCodes(items.map((item) => item.gitDir));
    const again: Pending[] = [];
    items.forEach((item, i) => {
      if (codes?.[i] === 0) item.resolve();
      // Failed, or the shell did not say: git's own answer, with its message.
      else again.push(item);
    });
    await Promise.all(again.map(alone));
  };

  /** The exit code of each repository's check, or `null` when the shell failed to answer for all. */
  const shellCodes = (gitDirs: string[]) =>
    new Promise<number[] | null>((resolve) => {
      let child;
      try {
        child = spawn("sh", ["-c", SCRIPT, "forgekit-connectivity", options.binary, ...gitDirs], { env: gitEnvironment(options.home), stdio: ["ignore", "pipe", "ignore"], shell: false });
      } catch {
        // Arguments the OS refuses (a NUL in a path): each repository alone says what is wrong.
        resolve(null);
        return;
      }
      const out: Buffer[] = [];
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs * gitDirs.length);
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.on("error", () => {
        clearTimeout(timer);
        resolve(null);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        const lines = Buffer.concat(out).toString("utf8").split("\n").filter((line) => line !== "");
        if (code !== 0 || lines.length !== gitDirs.length || !lines.every((line) => /^\d+$/.test(line))) resolve(null);
        else resolve(lines.map(Number));
      });
    });

  return {
    check(gitDir) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ gitDir, resolve, reject });
        if (queue.length === 1) setImmediate(flush);
      });
    },
  };
}
