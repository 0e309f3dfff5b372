/**
 * The repository stage of an import: `git fetch` of the external repository's branches and tags
 * (and, from the forge, its pull-request heads) into the project's bare repository on its shard.
 * The URL is fetched directly — never stored as a remote — and the token reaches git only through
 * the environment as an `Authorization` header (imports/external-failure.ts `gitRemoteAccess`), so
 * it is written into no config, command line or log. Re-running the stage fetches again: idempotent.
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import type { Project } from "../accounts/types.js";
import type { RepositoryStorage } from "../ports/repository-storage.js";
import { CHECK_RECEIVED_OBJECTS, gitEnvironment } from "../repositories/git-command.js";
import type { GitRemoteAccess } from "./external-failure.js";

/** What the mirror brought. */
export interface MirrorResult {
  branches: number;
  tags: number;
}

/** Largest stderr kept for the error message. */
const STDERR_MAX = 4000;

/** A failed git run; its message never holds the token (it is removed even if git printed it). */
export class MirrorFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MirrorFailure";
  }
}

function run(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number, signal: AbortSignal | undefined, secrets: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { env, stdio: ["ignore", "pipe", "pipe"], shell: false });
    const out: Buffer[] = [];
    let err = "";
    let done = false;
    const command = args[args.indexOf("-C") + 2] ?? "";
    const redact = (text: string) => secrets.reduce((t, secret) => (secret === "" ? t : t.split(secret).join("[REDACTED]")), text);
    const finish = (error: Error | null, value?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error !== null) reject(error);
      else resolve(value ?? "");
    };
    const onAbort = () => {
      child.kill("SIGKILL");
      finish(new MirrorFailure("git fetch was interrupted"));
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(new MirrorFailure(`git ${command} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < STDERR_MAX) err += chunk.toString("utf8");
    });
    child.on("error", (error) => finish(new MirrorFailure(`could not run git: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) finish(null, Buffer.concat(out).toString("utf8"));
      else finish(new MirrorFailure(redact(`git ${command} exited with ${code}: ${err.trim().slice(0, STDERR_MAX)}`)));
    });
  });
}

/**
 * Fetches `access.url` into the project's repository: branches to `refs/heads`, tags to
 * `refs/tags`, `extraRefspecs` as given (pruning refs the source no longer has), then points HEAD
 * at `defaultBranch` when the source has it.
 */
export async function mirrorInto(
  storage: RepositoryStorage,
  project: Pick<Project, "id" | "repositoryStorage">,
  access: GitRemoteAccess,
  options: { defaultBranch: string | null; extraRefspecs?: readonly string[]; timeoutMs: number; signal?: AbortSignal; secrets: readonly string[] },
): Promise<MirrorResult> {
  if (storage.localPath === undefined) throw new MirrorFailure("the repository storage keeps no local directories: an import cannot fetch into it");
  const path = storage.localPath(project.repositoryStorage, { kind: "project", id: project.id });
  const env = { ...gitEnvironment(tmpdir()), ...access.env };
  const git = (args: string[]) => run([...CHECK_RECEIVED_OBJECTS, "-C", path, ...args], env, options.timeoutMs, options.signal, options.secrets);
  // The external repository's objects are checked (fsck) before any is kept or any ref moves.
  await git([
    "fetch",
    "--prune",
    "--no-write-fetch-head",
    "--no-tags",
    "--quiet",
    access.url,
    "+refs/heads/*:refs/heads/*",
    "+refs/tags/*:refs/tags/*",
    ...(options.extraRefspecs ?? []),
  ]);
  const refs = (await git(["for-each-ref", "--format=%(refname)", "refs/heads", "refs/tags"])).split("\n").filter((line) => line !== "");
  const branches = refs.filter((ref) => ref.startsWith("refs/heads/"));
  if (options.defaultBranch !== null && branches.includes(`refs/heads/${options.defaultBranch}`)) await git(["symbolic-ref", "HEAD", `refs/heads/${options.defaultBranch}`]);
  return { branches: branches.length, tags: refs.length - branches.length };
}
