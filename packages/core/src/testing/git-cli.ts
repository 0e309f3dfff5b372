/**
 * The real `git` CLI for tests of git over HTTP (DESIGN §8: real clients where they exist): a
 * temporary HOME, no system or global configuration, never a terminal prompt, fixed identities.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What one git command did. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where a git command runs, what it adds to the environment, and its stdin (none when absent). */
export interface GitRunOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
}

/** A git client in its own temporary HOME. */
export interface GitClient {
  /** The temporary folder (HOME and a place for working copies). */
  readonly home: string;
  /** Runs `git <args>` in `cwd` (default HOME); never rejects, the exit code says how it went. */
  run(args: readonly string[], options?: GitRunOptions): Promise<GitRun>;
  /** Runs and throws with git's stderr unless it exits 0. */
  must(args: readonly string[], options?: GitRunOptions): Promise<string>;
  /** A fresh path inside HOME. */
  path(name: string): string;
  /** Removes HOME. */
  cleanup(): void;
}

/** `http://user:password@host/…` with both parts percent-encoded. */
export function gitUrl(base: string, repository: string, credentials?: { username: string; password: string }): string {
  const url = new URL(`${base.replace(/\/$/, "")}/${repository}`);
  if (credentials !== undefined) {
    url.username = encodeURIComponent(credentials.username);
    url.password = encodeURIComponent(credentials.password);
  }
  return url.toString();
}

let made = 0;

/** A git client; call `cleanup()` after the tests. */
export function createGitClient(): GitClient {
  const home = mkdtempSync(join(tmpdir(), "forgekit-git-client-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig-none"),
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS: "",
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.com",
    LC_ALL: "C",
  };
  const run = (args: readonly string[], options: GitRunOptions = {}) =>
    new Promise<GitRun>((resolve) => {
      const child = execFile("git", ["-c", "init.defaultBranch=main", "-c", "credential.helper=", ...args], { cwd: options.cwd ?? home, env: { ...env, ...options.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        resolve({ code, stdout, stderr });
      });
      child.stdin?.end(options.input);
    });
  return {
    home,
    run,
    async must(args, options) {
      const r = await run(args, options);
      if (r.code !== 0) throw new Error(`git ${args.join(" ")} exited with ${r.code}: ${r.stderr}`);
      return r.stdout;
    },
    path: (name) => join(home, `${name}-${(made += 1)}`),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** Commits one file in a fresh working copy and pushes it to `remote` as `main`; resolves the working copy. */
export async function pushOneCommit(git: GitClient, remote: string, message: string): Promise<string> {
  const work = git.path("work");
  await git.must(["init", "-q", work]);
  writeFileSync(join(work, "f.txt"), `${message}\n`);
  await git.must(["add", "f.txt"], { cwd: work });
  await git.must(["commit", "-q", "-m", message], { cwd: work });
  await git.must(["push", "-q", remote, "main"], { cwd: work });
  return work;
}
