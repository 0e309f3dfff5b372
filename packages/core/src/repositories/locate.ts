/**
 * Which shard holds a container's repository. Every container's row names it (projects since
 * 0001, snippets and group wikis since migration 0009: `storageMoves.containers`), and
 * {@link containerStorage} reads it there. Snippets and groups made before 0009 have none
 * recorded: their repositories are looked for on `defaultRepositoryStorage` first, then on the
 * other shards in configuration order ({@link locateRepository}; changing the default later does
 * not lose them), and what is found is recorded, so the search happens once per container.
 */
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { RepositoryKind, RepositoryRef } from "../ports/repository-storage.js";
import type { StorageMoveKind } from "../ports/storage-moves-store.js";
import type { TransactionStore } from "../ports/store.js";

type Deps = Pick<ForgekitConfig, "repositoryStorage" | "repositoryStorages" | "defaultRepositoryStorage">;

/** The repository kind of a container kind (a group's repository is its wiki). */
export const REPOSITORY_KIND_OF: Readonly<Record<StorageMoveKind, RepositoryKind>> = { project: "project", snippet: "snippet", group: "group-wiki" };

/** The container kind owning a repository kind. */
export const CONTAINER_KIND_OF: Readonly<Record<RepositoryKind, StorageMoveKind>> = { project: "project", snippet: "snippet", "group-wiki": "group" };

/**
 * The shard holding the repository of a snippet or group wiki, found by looking on the shards
 * (`null` when no shard has it). Shards without a directory are skipped; a storage failure is `internal`.
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

/** A container's repository location: its shard (`null`: no repository found anywhere) and read-only flag. */
export interface ContainerStorage {
  storage: string | null;
  readOnly: boolean;
}

/**
 * Where the container's repository is: the recorded shard, or — for a snippet or group wiki made
 * before 0009 — the shard found by {@link locateRepository}, recorded then (compare-and-set on "not
 * recorded", so racing callers record one answer). `not_found(<Kind>)` for an unknown container.
 */
export function containerStorage(deps: Deps, store: Pick<TransactionStore, "storageMoves">, kind: StorageMoveKind, id: number): ResultAsync<ContainerStorage, ForgekitError> {
  const read = async (): Promise<ContainerStorage | ForgekitError> => {
    const container = await store.storageMoves.containers.find(kind, id);
    if (container === null) return errors.notFound(THING[kind]);
    if (container.storage !== null) return { storage: container.storage, readOnly: container.readOnly };
    const found = await locateRepository(deps, { kind: REPOSITORY_KIND_OF[kind], id });
    if (found.isErr()) return found.error;
    if (found.value === null) return { storage: null, readOnly: container.readOnly };
    const recorded = await store.storageMoves.containers.update(kind, id, { storage: found.value }, { storage: null });
    // Lost the race to record it: the winner's answer stands.
    const after = recorded ?? (await store.storageMoves.containers.find(kind, id));
    return after === null ? errors.notFound(THING[kind]) : { storage: after.storage, readOnly: after.readOnly };
  };
  return ResultAsync.fromPromise(read(), (cause) => errors.internal(cause)).andThen((value) => ("code" in value ? errAsync(value) : okAsync(value)));
}

/** The reference's not-found names (`404 Project Not Found`, …). */
const THING: Readonly<Record<StorageMoveKind, string>> = { project: "Project", snippet: "Snippet", group: "Group" };

async function hasRepository(deps: Deps, storage: string, repository: RepositoryRef): Promise<boolean> {
  try {
    return await deps.repositoryStorage.exists(storage, repository);
  } catch (error) {
    // A shard without a directory holds nothing (with the default implementation); anything else is a real failure.
    if ((error as { reason?: unknown }).reason === "no_path") return false;
    throw error;
  }
}
