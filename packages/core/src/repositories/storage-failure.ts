/** The rejection value of the repository storage port: an Error with a `reason`. */
import type { RepositoryStorageFailure, RepositoryStorageFailureReason } from "../ports/repository-storage.js";

/** Builds a {@link RepositoryStorageFailure}. */
export function repositoryStorageFailure(reason: RepositoryStorageFailureReason, message: string, cause?: unknown): RepositoryStorageFailure {
  const error = new Error(message, cause === undefined ? undefined : { cause }) as Error & { reason: RepositoryStorageFailureReason };
  error.name = "RepositoryStorageFailure";
  error.reason = reason;
  return error;
}

/** Whether `value` is a {@link RepositoryStorageFailure} (by shape: it may come from a host's implementation). */
export function isRepositoryStorageFailure(value: unknown): value is RepositoryStorageFailure {
  return value instanceof Error && typeof (value as { reason?: unknown }).reason === "string";
}
