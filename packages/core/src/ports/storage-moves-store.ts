/**
 * Storage port of repository storage moves (spec "Repository storage moves"; reference §7): the
 * move rows, and where each container's repository lives (its shard and read-only flag) — the
 * `repository_storage` / `repository_read_only` columns of projects, and since migration 0009 of
 * snippets and group wikis.
 *
 * Contract: "not found" is `null`; infrastructure failures reject. Every write that a move's
 * correctness depends on is a compare-and-set (`expect`, `from`): of racing callers exactly one
 * wins, and a worker that resumes a move after a crash cannot apply a step twice.
 */
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** What a move moves: the repository of a project, a snippet, or a group's wiki. */
export type StorageMoveKind = "project" | "snippet" | "group";
/** Every {@link StorageMoveKind}, in the order the API lists them. */
export const STORAGE_MOVE_KINDS: readonly StorageMoveKind[] = ["project", "snippet", "group"];

/**
 * States and the integers stored for them (reference `RepositoryStorageMovable`):
 * `initial` 1, `scheduled` 2, `started` 3, `finished` 4, `failed` 5, `replicated` 6, `cleanup_failed` 7.
 */
export const STORAGE_MOVE_STATE_CODES = {
  initial: 1,
  scheduled: 2,
  started: 3,
  finished: 4,
  failed: 5,
  replicated: 6,
  cleanup_failed: 7,
} as const;
/** The state of a storage move (`initial`, `scheduled`, `started`, `finished`, `failed`, …). */
export type StorageMoveState = keyof typeof STORAGE_MOVE_STATE_CODES;

/** The state of a stored integer; `null` for an integer no state has. */
export function storageMoveStateOf(code: number): StorageMoveState | null {
  for (const [state, value] of Object.entries(STORAGE_MOVE_STATE_CODES)) if (value === code) return state as StorageMoveState;
  return null;
}

/** States a move ends in. */
export const FINAL_STORAGE_MOVE_STATES: readonly StorageMoveState[] = ["finished", "failed", "cleanup_failed"];

/** A move row. */
export interface StorageMove {
  id: number;
  kind: StorageMoveKind;
  /** The project, snippet or group id. */
  containerId: number;
  state: StorageMoveState;
  sourceStorage: string;
  destinationStorage: string;
  /** Why the move failed (`failed`, `cleanup_failed`); null otherwise. */
  errorMessage: string | null;
  /** The background job running the move (one container's, or a bulk move's); null until known. */
  jobId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What recording a storage move takes: what moves, its state, from which storage to which, and its job. */
export interface NewStorageMove {
  kind: StorageMoveKind;
  containerId: number;
  state: StorageMoveState;
  sourceStorage: string;
  destinationStorage: string;
  jobId?: number | null;
}

/** What a transition writes besides the state. */
export interface StorageMovePatch {
  state: StorageMoveState;
  errorMessage?: string | null;
  jobId?: number | null;
}

/** Filters of the storage-move list. */
export interface StorageMoveListFilter {
  kind: StorageMoveKind;
  /** Only the moves of this container. */
  containerId?: number;
}

/**
 * The store's storage moves: create, find, move through their states, list (all, per job) and find the
 * latest per container.
 */
export interface StorageMoveRepository {
  create(input: NewStorageMove, now: Date): Promise<StorageMove>;
  findById(id: number): Promise<StorageMove | null>;
  /**
   * Compare-and-set: applies `patch` (and `updatedAt = now`) only when the move's state is one of
   * `from`; the move after, or `null` when it is missing or in another state (nothing written).
   */
  transition(id: number, from: readonly StorageMoveState[], patch: StorageMovePatch, now: Date): Promise<StorageMove | null>;
  /** Newest first: `createdAt` descending, then id descending. */
  list(filter: StorageMoveListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<StorageMove>>;
  /** Every move run by the job, id ascending (a bulk move's moves). */
  listByJob(jobId: number): Promise<StorageMove[]>;
  /** The container's newest move (by id), or `null`. */
  latestFor(kind: StorageMoveKind, containerId: number): Promise<StorageMove | null>;
}

/** Where a container's repository lives. */
export interface RepositoryContainer {
  kind: StorageMoveKind;
  id: number;
  /**
   * The shard holding the repository. `null` for a snippet or group created before migration 0009
   * recorded it: its repository is found by looking on the shards (repositories/locate.ts), which
   * then records it.
   */
  storage: string | null;
  readOnly: boolean;
}

/** Conditions of {@link RepositoryContainerRepository.update}: the row must hold these values. */
export interface ContainerExpectation {
  storage?: string | null;
  readOnly?: boolean;
}

/**
 * Where the repositories of projects, snippets and groups live (storage and read-only flag): find, update,
 * list ids and count, for storage moves.
 */
export interface RepositoryContainerRepository {
  /** The container's location; `null` when there is no such project, snippet or group. */
  find(kind: StorageMoveKind, id: number): Promise<RepositoryContainer | null>;
  /**
   * Sets the storage and/or read-only flag, only when the row holds what `expect` says
   * (compare-and-set); the container after, or `null` when it is missing or did not match.
   */
  update(kind: StorageMoveKind, id: number, patch: { storage?: string; readOnly?: boolean }, expect?: ContainerExpectation): Promise<RepositoryContainer | null>;
  /**
   * Ids of the containers of `kind` whose recorded storage is `storage` (`null`: not recorded),
   * id ascending, greater than `afterId`, at most `limit` (1…1000).
   */
  listIds(kind: StorageMoveKind, storage: string | null, afterId: number, limit: number): Promise<number[]>;
  /** How many containers of `kind` have `storage` recorded (`null`: not recorded). */
  count(kind: StorageMoveKind, storage: string | null): Promise<number>;
}

/** The storage-moves part of the store. */
export interface StorageMovesStore {
  moves: StorageMoveRepository;
  containers: RepositoryContainerRepository;
}
