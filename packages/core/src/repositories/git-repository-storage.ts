/**
 * The default {@link RepositoryStorage}: a directory per shard, bare repositories at their hashed
 * paths, the `git` CLI for everything git must do. Repositories are built in `<shard>/+tmp/` and
 * renamed into place, so a crash or a failure never leaves a half-made repository at a real path.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { CreateRepositoryOptions, InitialCommit, RepositoryRef, RepositoryStorage } from "../ports/repository-storage.js";
import { connectivityChecker } from "./connectivity.js";
import { fileWorkPool, NOT_FILE_OR_FOLDER, type FileWork } from "./file-work.js";
import { runGit, type GitCommandOptions } from "./git-command.js";
import { hashedRepositoryPath } from "./hashed-path.js";
import { isBranchName, isRepositoryFilePath } from "./names.js";
import { reading } from "./repository-reading.js";
import { present } from "./present.js";
import { mirrorFolder, REPOSITORY_FILE_FOLDERS } from "./repository-files.js";
import { repositoryStorageFailure } from "./storage-failure.js";

/** Options of {@link gitRepositoryStorage}. */
export interface GitRepositoryStorageOptions {
  /** Shard name → its directory (relative ones resolve against the working directory now); `undefined`: none configured. */
  shards: Readonly<Record<string, string | undefined>>;
  /** The git executable (default `git`). */
  git?: string;
  /** Longest one git command may run, in ms (default 120 000). */
  timeoutMs?: number;
}

/** Where work in progress lives inside a shard; `+` never starts a hashed-layout folder. */
const WORK_DIR = "+tmp";
/** Where `create` with `existing: "move-aside"` puts what it found (kept for an operator to inspect). */
const ORPHANED_DIR = "+orphaned";
const ZERO_CHECKSUM = "0".repeat(40);

/** Builds the git CLI implementation of the port. */
export function gitRepositoryStorage(options: GitRepositoryStorageOptions): RepositoryStorage {
  const roots = new Map(Object.entries(options.shards).map(([name, path]) => [name, path === undefined ? undefined : resolve(path)]));
  const git = (root: string): GitCommandOptions => ({ binary: options.git ?? "git", timeoutMs: options.timeoutMs ?? 120_000, home: root });

  // Small repositories are walked in a file worker first, off the event loop (repository-reading.ts).
  const connectivity = connectivityChecker(git(tmpdir()), { inProcess: (gitDir) => fileWork().connectivity(gitDir) });
  /**
   * Copies and removals in worker threads (file-work.ts); a failed removal is left to `rm`'s
   * retries. A copy refusing a symlink or socket is the storage's "failed".
   */
  const removeTree = async (dir: string) => {
    try {
      await fileWork().removeTree(dir);
    } catch {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const files = {
    async copyTree(from: string, to: string) {
      try {
        await fileWork().copyTree(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === NOT_FILE_OR_FOLDER) throw repositoryStorageFailure("failed", (error as Error).message);
        throw error;
      }
    },
  };

  const rootOf = (storage: string): string => {
    if (!roots.has(storage)) throw repositoryStorageFailure("unknown_storage", `repository storage "${storage}" is not configured`);
    const root = roots.get(storage);
    if (root === undefined) {
      throw repositoryStorageFailure("no_path", `repository storage "${storage}" has no directory: set repositoryStorages.${storage}.path in the forgekit configuration`);
    }
    return root;
  };
  const locate = (storage: string, repository: RepositoryRef) => {
    const root = rootOf(storage);
    return { root, path: join(root, hashedRepositoryPath(repository)) };
  };
  const workDir = async (root: string, label: string) => {
    try {
      return await mkdtemp(join(root, WORK_DIR, `${label}-`));
    } catch (error) {
      // The shard or its work folder does not exist yet (first use): make them, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(join(root, WORK_DIR), { recursive: true });
      return mkdtemp(join(root, WORK_DIR, `${label}-`));
    }
  };
  /**
   * A path in the shard's work area for one copy or removal (not created): the work area is made
   * once per shard, and again if someone removed it meanwhile (`retry`'s ENOENT).
   */
  const workAreas = new Set<string>();
  const workPath = async (root: string, label: string) => {
    if (!workAreas.has(root)) {
      await mkdir(join(root, WORK_DIR), { recursive: true });
      workAreas.add(root);
    }
    return join(root, WORK_DIR, `${label}-${randomBytes(8).toString("hex")}.git`);
  };
  const inWorkArea = async <T>(root: string, label: string, fn: (path: string) => Promise<T>): Promise<T> => {
    try {
      return await fn(await workPath(root, label));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !workAreas.delete(root) || !present(root)) throw error;
      return fn(await workPath(root, label));
    }
  };
  /** Moves a finished repository into place; something already there wins (`exists`). */
  const publish = async (work: string, path: string) => {
    await mkdir(dirname(path), { recursive: true });
    try {
      await rename(work, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST" || code === "ENOTDIR") throw repositoryStorageFailure("exists", `a repository already exists at ${path}`);
      throw error;
    }
  };
  /**
   * A bare repository with HEAD on `branch`: a copy of an empty one `git init` made once per
   * process (a few small files), since spawning git for each new project would dominate its cost.
   */
  const initBare = async (dir: string, branch: string) => {
    const empty = await emptyRepository(git(tmpdir()));
    // Leaf folders only (recursive mkdir makes their parents), in parallel: the fewest filesystem calls.
    await Promise.all(empty.leafDirectories.map((leaf) => mkdir(join(dir, leaf), { recursive: true })));
    await Promise.all([...empty.files].map(([file, content]) => writeFile(join(dir, file), file === "HEAD" ? `ref: refs/heads/${branch}\n` : content)));
  };
  const checksum = async (root: string, path: string) => {
    // Read from the files when their layout is the plain one (no git process per call: a bulk
    // storage move checksums every repository on two shards); git answers in every other case.
    const refs = reading.readRefFiles(path) ?? (await runGit(git(root), [`--git-dir=${path}`, "for-each-ref", "--format=%(objectname) %(refname)"]));
    return refsChecksum(refs);
  };

  return {
    async create(storage, repository, createOptions: CreateRepositoryOptions = {}) {
      const { root, path } = locate(storage, repository);
      const branch = createOptions.defaultBranch ?? "main";
      if (!isBranchName(branch)) throw repositoryStorageFailure("failed", `"${branch}" is not a valid branch name`);
      const work = await workDir(root, "create");
      try {
        await initBare(work, branch);
        if (createOptions.commit) await runGit(git(root), [`--git-dir=${work}`, "fast-import", "--quiet", "--done"], fastImportStream(branch, createOptions.commit));
        if (!present(path)) {
          await publish(work, path);
          return {};
        }
        if (createOptions.existing !== "move-aside") throw repositoryStorageFailure("exists", `a repository already exists at ${path}`);
        const movedAside = join(root, ORPHANED_DIR, `${hashedRepositoryPath(repository).replaceAll("/", "_")}-${Date.now()}-${basename(work)}`);
        await mkdir(dirname(movedAside), { recursive: true });
        await rename(path, movedAside);
        await publish(work, path);
        return { movedAside };
      } catch (error) {
        await rm(work, { recursive: true, force: true });
        throw error;
      }
    },
    exists: async (storage, repository) => present(locate(storage, repository).path),
    async delete(storage, repository) {
      const { root, path } = locate(storage, repository);
      if (!present(path)) return false;
      // Renamed away first: the repository disappears at once, whatever the recursive removal meets.
      const trash = await inWorkArea(root, "delete", async (trash) => {
        await rename(path, trash);
        return trash;
      });
      await removeTree(trash);
      return true;
    },
    async replicate(repository, from, to) {
      const source = locate(from, repository);
      const target = locate(to, repository);
      if (source.path === target.path) throw repositoryStorageFailure("failed", `repository storages "${from}" and "${to}" are the same directory`);
      if (!present(source.path)) throw repositoryStorageFailure("not_found", `no repository at ${source.path}`);
      const head = readFileSync(join(source.path, "HEAD"), "utf8");
      const fresh = !present(target.path);
      let work: string | undefined;
      try {
        if (fresh) {
          // A new copy: the repository's files copied aside, then renamed into place — no git process.
          // Objects are immutable files, so they are hard-linked when both shards share a file system
          // (what `git clone --local` does) and copied otherwise; what a concurrent writer could tear
          // (refs) is caught by the checksum below, and storage moves also run `verify` (the
          // connectivity check) on the copy before using it.
          await inWorkArea(target.root, "replicate", async (path) => {
            try {
              await files.copyTree(source.path, path);
              work = path;
            } catch (error) {
              await removeTree(path);
              throw error;
            }
          });
        } else {
          // An existing copy is brought up to date by a fetch: exactly the reachable objects, verified by git.
          await runGit(git(target.root), [`--git-dir=${target.path}`, "fetch", "--quiet", "--prune", "--no-write-fetch-head", source.path, "+refs/*:refs/*"]);
          await writeFile(join(target.path, "HEAD"), head);
          // What git does not fetch: forgekit's own files kept with the repository (uploads).
          for (const folder of REPOSITORY_FILE_FOLDERS) await mirrorFolder(join(source.path, folder), join(target.path, folder));
        }
        const [expected, actual] = await Promise.all([checksum(source.root, source.path), checksum(target.root, work ?? target.path)]);
        if (expected !== actual) throw repositoryStorageFailure("failed", `refs changed while replicating to ${to} (checksum ${expected} ≠ ${actual})`);
        if (work !== undefined) await publish(work, target.path);
        return { checksum: actual };
      } catch (error) {
        if (work !== undefined) await removeTree(work);
        throw error;
      }
    },
    async checksum(storage, repository) {
      const { root, path } = locate(storage, repository);
      return present(path) ? checksum(root, path) : null;
    },
    async verify(storage, repository) {
      const { path } = locate(storage, repository);
      if (!present(path)) throw repositoryStorageFailure("not_found", `no repository at ${path}`);
      // The connectivity check git runs after a fetch (connectivity.ts): every object reachable from
      // HEAD and every ref must exist — commits, trees and tags parsed, blobs looked up. Dangling
      // objects are no concern of a move. A third of `git fsck --connectivity-only`'s CPU on a small
      // repository; checks asked for together share one process fork.
      await connectivity.check(path);
    },
    async size(storage, repository) {
      const { path } = locate(storage, repository);
      return present(path) ? diskUsage(path) : null;
    },
    localPath: (storage, repository) => locate(storage, repository).path,
  };
}

/** One pool of file workers for every storage of the process, started on first use. */
let sharedFileWork: FileWork | undefined;
const fileWork = (): FileWork => (sharedFileWork ??= fileWorkPool());

/** The folders and files of an empty bare repository, relative to it. */
interface EmptyRepository {
  /** Folders no other folder is inside of. */
  leafDirectories: string[];
  files: Map<string, Buffer>;
}

const emptyRepositories = new Map<string, Promise<EmptyRepository>>();
/**
 * What this git binary writes for an empty bare repository without template files (no sample
 * hooks), read into memory once per process from a `git init` in a temporary folder.
 */
function emptyRepository(options: GitCommandOptions): Promise<EmptyRepository> {
  let made = emptyRepositories.get(options.binary);
  if (made === undefined) {
    made = (async () => {
      const dir = await mkdtemp(join(tmpdir(), "forgekit-empty-repository-"));
      try {
        await runGit(options, ["init", "--bare", "--quiet", "--template=", dir]);
        return await snapshot(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
    // A failure (git missing) is not kept: the next call tries again.
    made.catch(() => emptyRepositories.delete(options.binary));
    emptyRepositories.set(options.binary, made);
  }
  return made;
}

async function snapshot(root: string): Promise<EmptyRepository> {
  const result: EmptyRepository = { leafDirectories: [], files: new Map() };
  const walk = async (relative: string) => {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    if (relative !== "" && !entries.some((entry) => entry.isDirectory())) result.leafDirectories.push(relative);
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) result.files.set(path, await readFile(join(root, path)));
    }
  };
  await walk("");
  return result;
}


/**
 * XOR of the SHA-1 of every `<object> <ref>` line (the reference's repository checksum): the
 * order refs are listed in does not matter, and any added, removed or moved ref changes it.
 */
export function refsChecksum(forEachRefOutput: string): string {
  const sum = Buffer.alloc(20);
  for (const line of forEachRefOutput.split("\n")) {
    if (line === "") continue;
    const digest = createHash("sha1").update(line).digest();
    for (let i = 0; i < 20; i += 1) sum[i] = (sum[i] ?? 0) ^ (digest[i] ?? 0);
  }
  const hex = sum.toString("hex");
  return hex === ZERO_CHECKSUM ? ZERO_CHECKSUM : hex;
}

/** Bytes of every file under `dir`. */
async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await diskUsage(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

/** Identity text for a commit header: git cuts names at `<`, `>` and line ends. */
const identity = (text: string) => text.replace(/[<>\n\r\0]/g, "").trim() || "unknown";

/** `git fast-import` input writing `commit` on `branch`: one call, however many files. */
export function fastImportStream(branch: string, commit: InitialCommit): Uint8Array {
  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, "utf8"));
  const data = (content: string) => {
    const bytes = Buffer.from(content, "utf8");
    text(`data ${bytes.length}\n`);
    parts.push(bytes);
    text("\n");
  };
  const who = `${identity(commit.author.name)} <${identity(commit.author.email)}> ${Math.floor(commit.date.getTime() / 1000)} +0000`;
  text(`commit refs/heads/${branch}\nauthor ${who}\ncommitter ${who}\n`);
  data(commit.message);
  for (const file of commit.files) {
    if (!isRepositoryFilePath(file.path)) throw repositoryStorageFailure("failed", `"${file.path}" cannot name a file in a repository`);
    // C-style quoting (fast-import's): control characters are already refused, so `\` and `"` are all to escape.
    text(`M 100644 inline "${file.path.replace(/[\\"]/g, "\\$&")}"\n`);
    data(file.content);
  }
  text("done\n");
  return Buffer.concat(parts);
}
