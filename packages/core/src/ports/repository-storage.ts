/**
 * The repository storage port (DESIGN §7): bare git repositories on named shards. A repository is
 * named by what owns it (kind + id), never by a path a user chose, so renames move nothing and no
 * input can reach outside a shard. The default implementation runs the `git` CLI on a directory
 * per shard (`repositories/git-repository-storage.ts`); a host may plug in another.
 *
 * Contract for every method: an unknown shard name, a shard without a directory, a repository that
 * already exists on `create`, and a failed or timed-out git command reject with a
 * {@link RepositoryStorageFailure}; "no such repository" is `false` / `null`, never a rejection.
 */

/** What owns a repository. Each kind has its own namespace on disk. */
export type RepositoryKind = "project" | "group-wiki" | "snippet";

/** A repository, named by its container. */
export interface RepositoryRef {
  /** Which kind of container the repository belongs to. */
  kind: RepositoryKind;
  /** The container's id (project, group or snippet id): a positive integer. */
  id: number;
}

/** One file of an initial commit. */
export interface RepositoryFile {
  /** Relative path inside the repository (checked with `isRepositoryFilePath`). */
  path: string;
  /** The file's content. */
  content: string;
}

/** A commit written while the repository is created (snippets: their files). */
export interface InitialCommit {
  /** The files the commit writes. */
  files: readonly RepositoryFile[];
  /** The commit message. */
  message: string;
  /** The commit's author (and committer). */
  author: { name: string; email: string };
  /** The commit's author and committer date. */
  date: Date;
}

/** Options of {@link RepositoryStorage.create}. */
export interface CreateRepositoryOptions {
  /** Branch `HEAD` names (default `main`); the initial commit, if any, goes there. */
  defaultBranch?: string;
  /** A first commit to write on the default branch. */
  commit?: InitialCommit;
  /**
   * What to do with something already at the repository's path: `refuse` (default) rejects with
   * `exists`; `move-aside` moves it into the shard's `+orphaned/` folder first (nothing is deleted)
   * and says where. A caller that has just inserted the container's row knows no row of its
   * database owns that leftover (a reset database, a crash before a rollback's cleanup).
   */
  existing?: "refuse" | "move-aside";
}

/** What {@link RepositoryStorage.create} did besides creating. */
export interface CreatedRepository {
  /** Where a leftover found at the path was moved (`existing: "move-aside"`). */
  movedAside?: string;
}

/** What {@link RepositoryStorage.replicate} checked: both shards held refs with this checksum when it resolved. */
export interface ReplicateResult {
  checksum: string;
}

/** Why a storage operation failed. */
export type RepositoryStorageFailureReason =
  /** The shard name is not configured. */
  | "unknown_storage"
  /** The shard is configured without a directory (`repositoryStorages.<name>.path`). */
  | "no_path"
  /** `create` found something at the repository's path already. */
  | "exists"
  /** `replicate` found no source repository. */
  | "not_found"
  /** A git command failed or timed out, or the filesystem refused. */
  | "failed";

/** The error the port's promises reject with (an `Error` with a `reason`). */
export interface RepositoryStorageFailure extends Error {
  /** Why the operation failed, for callers that answer differently per cause. */
  readonly reason: RepositoryStorageFailureReason;
}

/** Bare repositories on named shards. */
export interface RepositoryStorage {
  /**
   * Creates the bare repository (with `options.commit` as its first commit). Atomic: the repository
   * appears complete or not at all. When its path is taken: see `options.existing`.
   */
  create(storage: string, repository: RepositoryRef, options?: CreateRepositoryOptions): Promise<CreatedRepository>;
  /** Whether the repository exists on that shard. */
  exists(storage: string, repository: RepositoryRef): Promise<boolean>;
  /** Removes the repository; resolves whether there was one. */
  delete(storage: string, repository: RepositoryRef): Promise<boolean>;
  /**
   * Copies the repository's refs, objects and `HEAD` from one shard to another. Idempotent: an
   * existing copy on `to` is brought up to date (refs gone from the source are pruned). Rejects
   * with `not_found` when the source has no such repository; the source is never changed.
   * An implementation that compares both shards' {@link checksum}s before resolving may resolve
   * `{ checksum }` (the value both held): a storage move then does not read them again.
   */
  replicate(repository: RepositoryRef, from: string, to: string): Promise<void | ReplicateResult>;
  /**
   * A digest of the repository's refs (names and targets): equal on two shards exactly when both
   * hold the same refs. 40 zeros for a repository without refs; `null` when there is no repository.
   */
  checksum(storage: string, repository: RepositoryRef): Promise<string | null>;
  /**
   * Checks that the repository is whole: every object reachable from its refs is present and
   * readable (the default implementation runs git's connectivity check, `git rev-list --objects --all`). Resolves when it is;
   * rejects with `not_found` when there is no repository and with `failed` when it is broken.
   * Repository storage moves run it on the copy before switching a container to it. Optional: a
   * storage without it is verified by {@link checksum} alone.
   */
  verify?(storage: string, repository: RepositoryRef): Promise<void>;
  /** Bytes the repository occupies on disk; `null` when there is no repository. */
  size(storage: string, repository: RepositoryRef): Promise<number | null>;
  /**
   * The absolute directory of the bare repository on that shard (whether or not it exists yet),
   * for programs that must run git on it directly: git over HTTP streams `git upload-pack` /
   * `git receive-pack` there. Throws like the other methods for an unknown shard or one without a
   * directory. Optional: a storage that keeps repositories elsewhere than on a local filesystem
   * leaves it out, and git over HTTP then answers 404 for its repositories.
   */
  localPath?(storage: string, repository: RepositoryRef): string;
}
