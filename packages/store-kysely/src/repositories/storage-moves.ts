/** SQL repository storage moves and container locations (ports/storage-moves-store.ts; migration 0009_storage_moves). */
import type {
  RepositoryContainer,
  RepositoryContainerRepository,
  StorageMove,
  StorageMoveKind,
  StorageMoveRepository,
  StorageMovesStore,
} from "@forgekit/core";
import { STORAGE_MOVE_STATE_CODES, storageMoveStateOf } from "@forgekit/core/internal";
import type { Selectable } from "kysely";
import type { AnyDb } from "../dialects/traits.js";
import type { RepositoryStorageMovesTable } from "../schema-storage-moves.js";
import { offsetPage } from "../sql/pagination.js";
import { atomic, type SqlContext } from "./context.js";

const MOVES = "forgekit_repository_storage_moves";

function sqlMoves(ctx: SqlContext): StorageMoveRepository {
  const { db, traits: t } = ctx;
  const map = (row: Selectable<RepositoryStorageMovesTable>): StorageMove => {
    const state = storageMoveStateOf(Number(row.state));
    if (state === null) throw new Error(`storage move ${row.id} has unknown state ${row.state}`);
    return {
      id: Number(row.id),
      kind: row.container_type as StorageMoveKind,
      containerId: Number(row.container_id),
      state,
      sourceStorage: row.source_storage_name,
      destinationStorage: row.destination_storage_name,
      errorMessage: row.error_message,
      jobId: row.job_id === null ? null : Number(row.job_id),
      createdAt: t.fromDate(row.created_at),
      updatedAt: t.fromDate(row.updated_at),
    };
  };
  const findIn = async (c: SqlContext, id: number, lock = false) => {
    let query = c.db.selectFrom(MOVES).selectAll().where("id", "=", id);
    if (lock && c.traits.supportsForUpdate) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row === undefined ? null : map(row);
  };
  return {
    async create(input, now) {
      const id = await t.insert(db, MOVES, {
        container_type: input.kind,
        container_id: input.containerId,
        state: STORAGE_MOVE_STATE_CODES[input.state],
        source_storage_name: input.sourceStorage,
        destination_storage_name: input.destinationStorage,
        error_message: null,
        job_id: input.jobId ?? null,
        created_at: t.toDate(now),
        updated_at: t.toDate(now),
      });
      const created = await findIn(ctx, id);
      if (created === null) throw new Error(`storage move ${id} vanished after its insert`);
      return created;
    },
    findById: (id) => findIn(ctx, id),
    transition: (id, from, patch, now) =>
      atomic(ctx, async (tx) => {
        // Read under a row lock, then write: of racing callers the second sees the first's state.
        const current = await findIn(tx, id, true);
        if (current === null || !from.includes(current.state)) return null;
        const set: Record<string, unknown> = { state: STORAGE_MOVE_STATE_CODES[patch.state], updated_at: t.toDate(now) };
        if (patch.errorMessage !== undefined) set["error_message"] = patch.errorMessage;
        if (patch.jobId !== undefined) set["job_id"] = patch.jobId;
        await tx.db.updateTable(MOVES).set(set).where("id", "=", id).execute();
        return findIn(tx, id);
      }),
    list(filter, page) {
      let query = db.selectFrom(MOVES).where("container_type", "=", filter.kind);
      if (filter.containerId !== undefined) query = query.where("container_id", "=", filter.containerId);
      return offsetPage(db, query, (q) => q.selectAll().orderBy("created_at", "desc").orderBy("id", "desc"), page, map);
    },
    async listByJob(jobId) {
      const rows = await db.selectFrom(MOVES).selectAll().where("job_id", "=", jobId).orderBy("id", "asc").execute();
      return rows.map(map);
    },
    async latestFor(kind, containerId) {
      const row = await db.selectFrom(MOVES).selectAll().where("container_type", "=", kind).where("container_id", "=", containerId).orderBy("id", "desc").limit(1).executeTakeFirst();
      return row === undefined ? null : map(row);
    },
  };
}

/** Where each kind keeps its repository's shard and read-only flag. */
const COLUMNS: Readonly<Record<StorageMoveKind, { table: string; storage: string; readOnly: string; groupsOnly: boolean }>> = {
  project: { table: "forgekit_projects", storage: "repository_storage", readOnly: "repository_read_only", groupsOnly: false },
  snippet: { table: "forgekit_snippets", storage: "repository_storage", readOnly: "repository_read_only", groupsOnly: false },
  // A group's wiki: the namespace row, groups only (user namespaces have no wiki).
  group: { table: "forgekit_namespaces", storage: "wiki_repository_storage", readOnly: "wiki_repository_read_only", groupsOnly: true },
};

interface LocationRow {
  id: number | string;
  storage: string | null;
  read_only: boolean | number;
}

function sqlContainers(ctx: SqlContext): RepositoryContainerRepository {
  const { traits: t } = ctx;
  // The three tables are reached through one column map, so the query builder sees them untyped.
  const any = (c: SqlContext) => c.db as unknown as AnyDb;
  const scoped = (c: SqlContext, kind: StorageMoveKind) => {
    const columns = COLUMNS[kind];
    const query = any(c).selectFrom(columns.table);
    return columns.groupsOnly ? query.where("kind", "=", "group") : query;
  };
  const findIn = async (c: SqlContext, kind: StorageMoveKind, id: number, lock = false): Promise<RepositoryContainer | null> => {
    const columns = COLUMNS[kind];
    let query = scoped(c, kind).select(["id", `${columns.storage} as storage`, `${columns.readOnly} as read_only`]).where("id", "=", id);
    if (lock && c.traits.supportsForUpdate) query = query.forUpdate();
    const row: LocationRow | undefined = await query.executeTakeFirst();
    return row === undefined ? null : { kind, id: Number(row.id), storage: row.storage, readOnly: t.fromBool(row.read_only) };
  };
  const onStorage = (kind: StorageMoveKind, storage: string | null) => {
    const column = COLUMNS[kind].storage;
    const query = scoped(ctx, kind);
    return storage === null ? query.where(column, "is", null) : query.where(column, "=", storage);
  };
  return {
    find: (kind, id) => findIn(ctx, kind, id),
    update: (kind, id, patch, expect = {}) =>
      atomic(ctx, async (tx) => {
        // Read under a row lock, then write (a compare-and-set that also holds on MySQL, whose
        // affected-row count would not tell "matched but unchanged" from "not matched").
        const current = await findIn(tx, kind, id, true);
        if (current === null) return null;
        if (expect.storage !== undefined && current.storage !== expect.storage) return null;
        if (expect.readOnly !== undefined && current.readOnly !== expect.readOnly) return null;
        const columns = COLUMNS[kind];
        const set: Record<string, unknown> = {};
        if (patch.storage !== undefined) set[columns.storage] = patch.storage;
        if (patch.readOnly !== undefined) set[columns.readOnly] = t.toBool(patch.readOnly);
        if (Object.keys(set).length > 0) await any(tx).updateTable(columns.table).set(set).where("id", "=", id).execute();
        return findIn(tx, kind, id);
      }),
    async listIds(kind, storage, afterId, limit) {
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`limit must be an integer from 1 to 1000, got ${limit}`);
      const rows = (await onStorage(kind, storage).select("id").where("id", ">", afterId).orderBy("id", "asc").limit(limit).execute()) as { id: number | string }[];
      return rows.map((row) => Number(row.id));
    },
    async count(kind, storage) {
      const row: { n: number | string | bigint } | undefined = await onStorage(kind, storage)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

/** The SQL storage-moves store. */
export function sqlStorageMoves(ctx: SqlContext): StorageMovesStore {
  return { moves: sqlMoves(ctx), containers: sqlContainers(ctx) };
}
