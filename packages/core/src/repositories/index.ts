/** Repositories on storage shards: the public face of the capability (port types, default implementation, layout). */
export type {
  CreateRepositoryOptions,
  InitialCommit,
  ReplicateResult,
  RepositoryFile,
  RepositoryKind,
  RepositoryRef,
  RepositoryStorage,
  RepositoryStorageFailure,
  RepositoryStorageFailureReason,
} from "../ports/repository-storage.js";
export type { RepositoryShardConfig } from "./config.js";
export { gitRepositoryStorage, type GitRepositoryStorageOptions } from "./git-repository-storage.js";
export { hashedRepositoryPath } from "./hashed-path.js";
export { locateRepository } from "./locate.js";
export { isRepositoryStorageFailure, repositoryStorageFailure } from "./storage-failure.js";
