/**
 * One bare repository as the REST routes see it: git plumbing with machine formats (`-z`, NUL
 * separated fields), user input only ever after `--end-of-options` / `--` or on stdin, bounded
 * output and a timeout on every command (DESIGN §7).
 */
import { execGit, type GitExecResult } from "../../repositories/git-exec.js";
import { repositoryStorageFailure } from "../../repositories/storage-failure.js";

/** How the repository layer runs git. */
export interface GitRepoOptions {
  /** The git executable (default `git`). */
  binary?: string;
  /** Longest one command may run (default 30 s). */
  timeoutMs?: number;
  /** HOME for git. */
  home: string;
}

/** Options of one command. */
export interface RunOptions {
  input?: Uint8Array | string;
  env?: Record<string, string>;
  /** Default 16 MiB. */
  maxOutputBytes?: number;
}

/** A repository directory plus the way to run git in it. */
export interface GitRepo {
  readonly directory: string;
  /** Runs `git --git-dir=<dir> <args>`; any exit code resolves. */
  run(args: readonly string[], options?: RunOptions): Promise<GitExecResult>;
  /** Like {@link run} but a non-zero exit or an over-long output rejects (a `failed` storage failure). */
  must(args: readonly string[], options?: RunOptions): Promise<Buffer>;
}

export const DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024;

/** Opens the repository at `directory` (it must exist; callers check with the storage port). */
export function gitRepo(directory: string, options: GitRepoOptions): GitRepo {
  const run = (args: readonly string[], o: RunOptions = {}) =>
    execGit(
      {
        ...(options.binary === undefined ? {} : { binary: options.binary }),
        timeoutMs: options.timeoutMs ?? 30_000,
        home: options.home,
        maxOutputBytes: o.maxOutputBytes ?? DEFAULT_MAX_OUTPUT,
        ...(o.env === undefined ? {} : { env: o.env }),
        ...(o.input === undefined ? {} : { input: typeof o.input === "string" ? Buffer.from(o.input, "utf8") : o.input }),
      },
      [`--git-dir=${directory}`, ...args],
    );
  return {
    directory,
    run,
    async must(args, o) {
      const r = await run(args, o);
      if (r.code !== 0 || r.tooLarge) throw repositoryStorageFailure("failed", `git ${args[0] ?? ""} ${r.tooLarge ? "printed too much" : `exited with ${r.code}: ${r.stderr.slice(0, 500)}`}`);
      return r.stdout;
    },
  };
}

/** Splits NUL-terminated records (a trailing NUL leaves no empty record). */
export function splitNul(out: Buffer | string): string[] {
  const text = typeof out === "string" ? out : out.toString("utf8");
  const parts = text.split("\0");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** The all-zero object id (a ref that must not exist yet, in `update-ref`). */
export const ZERO_OID = "0".repeat(40);

/** A full object id (SHA-1 or SHA-256). */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Whether `text` may be handed to git as a revision expression: not empty, not an option, no
 * control character (stdin protocols are line based), bounded length.
 */
export function isRevisionText(text: string): boolean {
  if (text === "" || text.startsWith("-") || Buffer.byteLength(text) > 1024) return false;
  return ![...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}
