/**
 * Creating a container (project, group, snippet) together with its repository. The repository is
 * a filesystem side effect no database transaction can roll back, so the order is fixed:
 *
 * 1. the transaction inserts the row and everything that goes with it;
 * 2. as its last step, still inside the transaction, the repository is created (atomically:
 *    built aside, renamed into place) — a failure here returns an error and the row rolls back;
 * 3. if the transaction then fails anyway (the commit itself), the repository is deleted.
 *
 * So a failure leaves neither a row without a repository nor a repository without a row. (A crash
 * between 2 and 3 can leave a directory whose id no row holds; the next container given that id
 * then fails with "a repository already exists at …" rather than adopting it, see the README.)
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { inTransaction } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { CreateRepositoryOptions, RepositoryRef } from "../ports/repository-storage.js";
import type { TransactionStore } from "../ports/store.js";

/** The repository a new container gets. */
export interface NewRepository {
  storage: string;
  ref: RepositoryRef;
  options?: CreateRepositoryOptions;
}

/** What the body of {@link inTransactionWithRepository} returns: the container and its repository. */
export interface CreatedContainer<T> {
  value: T;
  repository: NewRepository;
}

type Deps = Pick<ForgekitConfig, "store" | "repositoryStorage" | "logger">;

/**
 * Runs `body` in a transaction, then creates the repository it names as the transaction's last
 * step; removes that repository again if the transaction does not commit. A storage failure is
 * `internal` (its message, e.g. a shard without a directory, goes to the host's log).
 */
export function inTransactionWithRepository<T>(deps: Deps, body: (tx: TransactionStore) => Promise<Result<CreatedContainer<T>, ForgekitError>>): ResultAsync<T, ForgekitError> {
  let created: NewRepository | undefined;
  return inTransaction(deps.store, async (tx) => {
    const inserted = await body(tx);
    if (inserted.isErr()) return err(inserted.error);
    const { repository } = inserted.value;
    try {
      await deps.repositoryStorage.create(repository.storage, repository.ref, repository.options);
    } catch (cause) {
      return err(errors.internal(cause));
    }
    created = repository;
    return ok(inserted.value.value);
  }).orElse((error) => (created === undefined ? errAsync(error) : removeAfterRollback(deps, created).andThen(() => errAsync(error))));
}

/** Deletes a repository whose row did not commit; a failure to do so is logged, never hides the original error. */
function removeAfterRollback(deps: Deps, repository: NewRepository): ResultAsync<void, never> {
  return ResultAsync.fromSafePromise(
    deps.repositoryStorage.delete(repository.storage, repository.ref).then(
      () => undefined,
      (cause: unknown) =>
        deps.logger.log("error", "repositories.orphaned", {
          reason: "its row failed to commit and removing the repository failed",
          kind: repository.ref.kind,
          id: repository.ref.id,
          storage: repository.storage,
          error: cause instanceof Error ? cause.message : String(cause),
        }),
    ),
  );
}
