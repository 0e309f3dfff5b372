/**
 * Creating a container (project, group, snippet) together with its repository. The repository is
 * a filesystem side effect no database transaction can roll back, so the order is fixed:
 *
 * 1. the transaction inserts the row and everything that goes with it;
 * 2. as its last step, still inside the transaction, the repository is created (atomically:
 *    built aside, renamed into place) — a failure here returns an error and the row rolls back;
 * 3. if the transaction then fails anyway (the commit itself), the repository is deleted.
 *
 * So a failure leaves neither a row without a repository nor a repository without a row. Something
 * already at the new repository's path belongs to no row of this database (a crash between 2 and
 * 3, a database reset while its shards were kept): it is moved into the shard's `+orphaned/`
 * folder, never adopted nor deleted, and a warning is logged.
 */
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { inTransaction } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { CreateRepositoryOptions, RepositoryRef } from "../ports/repository-storage.js";
import type { TransactionStore } from "../ports/store.js";
import { CONTAINER_KIND_OF } from "./locate.js";

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
      // The row names its repository's shard (projects carry it from their insert; snippets and
      // group wikis get it here, in the same transaction: storage moves and locate.ts read it).
      if (repository.ref.kind !== "project") await tx.storageMoves.containers.update(CONTAINER_KIND_OF[repository.ref.kind], repository.ref.id, { storage: repository.storage });
      // The row was just inserted, so no row of this database owns whatever is at the path already.
      const made = await deps.repositoryStorage.create(repository.storage, repository.ref, { ...repository.options, existing: "move-aside" });
      if (made.movedAside !== undefined) {
        deps.logger.log("warn", "repositories.orphan_moved_aside", { kind: repository.ref.kind, id: repository.ref.id, storage: repository.storage, movedTo: made.movedAside });
      }
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
