/** In-memory repository storage moves and container locations (ports/storage-moves-store.ts). */
import { JournalMap } from "./journal.js";
import type {
  RepositoryContainer,
  RepositoryContainerRepository,
  StorageMove,
  StorageMoveKind,
  StorageMoveRepository,
  StorageMovesStore,
} from "../ports/storage-moves-store.js";
import { offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/** Where a snippet's or group wiki's repository lives (projects keep theirs on the project). */
export interface MemoryLocation {
  storage: string | null;
  readOnly: boolean;
}

/** The storage-move tables of the in-memory store. */
export interface StorageMovesTables {
  seq: number;
  moves: JournalMap<number, StorageMove>;
  /** `snippet:<id>` / `group:<id>` → location; absent = not recorded, writable (a row from before 0009). */
  locations: JournalMap<string, MemoryLocation>;
}

export function emptyStorageMovesTables(): StorageMovesTables {
  return { seq: 0, moves: new JournalMap(), locations: new JournalMap() };
}

/** The storage-move tables, added to a state made before they existed. */
function tables(state: MemoryState): StorageMovesTables {
  const holder = state as MemoryState & { storageMoves?: StorageMovesTables };
  holder.storageMoves ??= emptyStorageMovesTables();
  return holder.storageMoves;
}

const newestFirst = (a: StorageMove, b: StorageMove) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

function memoryMoves(run: Runner): StorageMoveRepository {
  return {
    create: (input, now) =>
      run((state) => {
        const t = tables(state);
        t.seq += 1;
        const move: StorageMove = {
          id: t.seq,
          kind: input.kind,
          containerId: input.containerId,
          state: input.state,
          sourceStorage: input.sourceStorage,
          destinationStorage: input.destinationStorage,
          errorMessage: null,
          jobId: input.jobId ?? null,
          createdAt: now,
          updatedAt: now,
        };
        t.moves.set(move.id, move);
        return copy(move);
      }),
    findById: (id) => run((state) => (tables(state).moves.has(id) ? copy(tables(state).moves.get(id) ?? null) : null)),
    transition: (id, from, patch, now) =>
      run((state) => {
        const stored = tables(state).moves.get(id);
        if (stored === undefined || !from.includes(stored.state)) return null;
        const move = tables(state).moves.edit(id)!;
        move.state = patch.state;
        if (patch.errorMessage !== undefined) move.errorMessage = patch.errorMessage;
        if (patch.jobId !== undefined) move.jobId = patch.jobId;
        move.updatedAt = now;
        return copy(move);
      }),
    list: (filter, page) =>
      run((state) => {
        const rows = [...tables(state).moves.values()]
          .filter((m) => m.kind === filter.kind && (filter.containerId === undefined || m.containerId === filter.containerId))
          .sort(newestFirst);
        return offsetPage(rows, page, copy);
      }),
    listByJob: (jobId) =>
      run((state) =>
        [...tables(state).moves.values()]
          .filter((m) => m.jobId === jobId)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    latestFor: (kind, containerId) =>
      run((state) => {
        let latest: StorageMove | null = null;
        for (const move of tables(state).moves.values()) if (move.kind === kind && move.containerId === containerId && (latest === null || move.id > latest.id)) latest = move;
        return latest === null ? null : copy(latest);
      }),
  };
}

/** The container's current location, or null when it does not exist. */
function locate(state: MemoryState, kind: StorageMoveKind, id: number): RepositoryContainer | null {
  if (kind === "project") {
    const project = state.projects.get(id);
    return project === undefined ? null : { kind, id, storage: project.repositoryStorage, readOnly: project.repositoryReadOnly };
  }
  const exists = kind === "snippet" ? state.activity.snippets.has(id) : state.namespaces.get(id)?.kind === "group";
  if (!exists) return null;
  const location = tables(state).locations.get(`${kind}:${id}`);
  return { kind, id, storage: location?.storage ?? null, readOnly: location?.readOnly ?? false };
}

function allIds(state: MemoryState, kind: StorageMoveKind): number[] {
  if (kind === "project") return [...state.projects.keys()];
  if (kind === "snippet") return [...state.activity.snippets.keys()];
  return [...state.namespaces.values()].filter((n) => n.kind === "group").map((n) => n.id);
}

function memoryContainers(run: Runner): RepositoryContainerRepository {
  const onStorage = (state: MemoryState, kind: StorageMoveKind, storage: string | null) =>
    allIds(state, kind)
      .filter((id) => locate(state, kind, id)?.storage === storage)
      .sort((a, b) => a - b);
  return {
    find: (kind, id) => run((state) => locate(state, kind, id)),
    update: (kind, id, patch, expect = {}) =>
      run((state) => {
        const current = locate(state, kind, id);
        if (current === null) return null;
        if (expect.storage !== undefined && current.storage !== expect.storage) return null;
        if (expect.readOnly !== undefined && current.readOnly !== expect.readOnly) return null;
        const next = { ...current, ...(patch.storage === undefined ? {} : { storage: patch.storage }), ...(patch.readOnly === undefined ? {} : { readOnly: patch.readOnly }) };
        if (kind === "project") {
          const project = state.projects.get(id);
          if (project === undefined) return null;
          state.projects.set(id, { ...project, repositoryStorage: next.storage ?? project.repositoryStorage, repositoryReadOnly: next.readOnly });
        } else {
          tables(state).locations.set(`${kind}:${id}`, { storage: next.storage, readOnly: next.readOnly });
        }
        return next;
      }),
    listIds: (kind, storage, afterId, limit) => {
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return Promise.reject(new RangeError(`limit must be an integer from 1 to 1000, got ${limit}`));
      return run((state) =>
        onStorage(state, kind, storage)
          .filter((id) => id > afterId)
          .slice(0, limit),
      );
    },
    count: (kind, storage) => run((state) => onStorage(state, kind, storage).length),
  };
}

/** The in-memory storage-moves store. */
export function memoryStorageMoves(run: Runner): StorageMovesStore {
  return { moves: memoryMoves(run), containers: memoryContainers(run) };
}
