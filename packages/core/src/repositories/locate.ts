/**
 * Which shard holds a repository. A project's row names its shard (`repositoryStorage`); snippets
 * and groups have no such column yet (storage moves of those kinds will add one), so their
 * repositories are looked for on `defaultRepositoryStorage` first, then on the other shards in
 * configuration order: changing the default later does not lose the ones made before.
 */
import { ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { RepositoryRef } from "../ports/repository-storage.js";

type Deps = Pick<ForgekitConfig, "repositoryStorage" | "repositoryStorages" | "defaultRepositoryStorage">;

/**
 * The shard holding the repository of a snippet or group wiki (`null` when no shard has it). Shards
 * without a directory are skipped; a storage failure is `internal`.
 */
export function locateRepository(deps: Deps, repository: RepositoryRef): ResultAsync<string | null, ForgekitError> {
  const names = Object.keys(deps.repositoryStorages);
  const order = [deps.defaultRepositoryStorage, ...names.filter((name) => name !== deps.defaultRepositoryStorage)];
  const search = async () => {
    for (const storage of order) if (await hasRepository(deps, storage, repository)) return storage;
    return null;
  };
  return ResultAsync.fromPromise(search(), (cause) => errors.internal(cause));
}

async function hasRepository(deps: Deps, storage: string, repository: RepositoryRef): Promise<boolean> {
  try {
    return await deps.repositoryStorage.exists(storage, repository);
  } catch (error) {
    // A shard without a directory holds nothing (with the default implementation); anything else is a real failure.
    if ((error as { reason?: unknown }).reason === "no_path") return false;
    throw error;
  }
}
