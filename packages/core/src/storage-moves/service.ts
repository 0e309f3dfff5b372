/**
 * `fk.storageMoves`: schedule, find and list repository storage moves (spec "Repository storage
 * moves"; reference §7). Callers are trusted (the routes check for an administrator).
 */
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { fromStore, inTransaction } from "../accounts/service-kit.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { Job, JobsService } from "../jobs/index.js";
import type { JobRepository } from "../ports/jobs-store.js";
import type { StorageMove, StorageMoveKind } from "../ports/storage-moves-store.js";
import type { OffsetPageResult } from "../ports/pagination.js";
import { BULK_STORAGE_MOVE_JOB, MAX_BULK_CONCURRENCY, moveJobRecord, STORAGE_MOVE_ATTEMPTS, STORAGE_MOVE_JOB, type BulkPayload } from "./jobs.js";
import { failBeforeSwitch, settleLatestMove, settleOrphan } from "./run.js";
import { checkDestination, isConfiguredStorage, NOT_INCLUDED, scheduleInTransaction } from "./schedule.js";

/** Options of {@link StorageMovesService.schedule}. */
export interface ScheduleMoveOptions {
  /** A configured shard other than the container's (default: the first other configured shard). */
  destination?: string;
}

/** Options of {@link StorageMovesService.scheduleBulk}. */
export interface BulkMoveOptions {
  /** The shard to empty of this kind's repositories (required, configured). */
  source: string;
  /** Where they go (default: the first configured shard other than `source`). */
  destination?: string;
  /**
   * How many of the moves run at once: an integer from 1 to 64 (default: twice the CPUs,
   * `os.availableParallelism() * 2`). Lower it to spare disks the API also serves from.
   */
  concurrency?: number;
}

export interface StorageMoveListOptions {
  /** Only the moves of this container. */
  containerId?: number;
  page?: number;
  perPage?: number;
}

export interface StorageMovesService {
  /**
   * Schedules a move of one container's repository: read-only at once, moved by a background job.
   * Validation errors in the reference's shape: `{"<kind>":["is read-only"]}` (a move is running or
   * the container is read-only for another reason), `{"destination_storage_name":["is not included
   * in the list"]}`; `not_found(<Kind>)` for an unknown container.
   */
  schedule(kind: StorageMoveKind, containerId: number, options?: ScheduleMoveOptions): ResultAsync<StorageMove, ForgekitError>;
  /**
   * Schedules moving every repository of `kind` off `options.source`: enqueues the bulk job, which
   * schedules and runs a move per container and reports its progress (moves ended / scheduled).
   */
  scheduleBulk(kind: StorageMoveKind, options: BulkMoveOptions): ResultAsync<Job, ForgekitError>;
  /** `record_not_found` (`404 Not found`) for an unknown id or a move of another kind. */
  find(kind: StorageMoveKind, id: number): ResultAsync<StorageMove, ForgekitError>;
  /** Newest first (created_at, then id, descending). */
  list(kind: StorageMoveKind, options?: StorageMoveListOptions): ResultAsync<OffsetPageResult<StorageMove>, ForgekitError>;
  /**
   * Settles a move whose job ended without finishing it (the job was cancelled, or its worker died
   * on the last attempt): before the switch → `failed` and the container writable on its source;
   * after it → `cleanup_failed`. Resolves the move as it is afterwards.
   */
  settle(kind: StorageMoveKind, id: number): ResultAsync<StorageMove, ForgekitError>;
}

type Deps = Pick<ForgekitConfig, "store" | "repositoryStorage" | "repositoryStorages" | "defaultRepositoryStorage" | "clock" | "logger"> & {
  /** The jobs the workers claim (`config.jobs ?? store.jobs`). */
  jobRepository: JobRepository;
  /** True when the jobs live in the store: a move and its job are then written in one transaction. */
  jobsInStore: boolean;
  jobs: JobsService;
};

/** Builds the service. */
export function storageMovesService(deps: Deps): StorageMovesService {
  const { store, clock } = deps;

  const findMove = (kind: StorageMoveKind, id: number) =>
    isRecordId(id)
      ? fromStore(store.storageMoves.moves.findById(id)).andThen((move) => (move === null || move.kind !== kind ? errAsync(errors.recordNotFound()) : okAsync(move)))
      : errAsync(errors.recordNotFound());

  const settleMove = (move: StorageMove) => settleOrphan(deps, deps.jobRepository, move);
  /** Before scheduling: the container's previous move, if its job died with it, is settled first. */
  const settleLatest = (kind: StorageMoveKind, containerId: number) => settleLatestMove(deps, deps.jobRepository, kind, containerId);

  const enqueueAfter = async (move: StorageMove): Promise<StorageMove> => {
    // The jobs live elsewhere (e.g. BullMQ): enqueue after the commit; if that fails, the move
    // fails at once and the container is writable again (nothing was copied yet).
    const job = await deps.jobs.enqueue(STORAGE_MOVE_JOB, { moveId: move.id }, { maxAttempts: STORAGE_MOVE_ATTEMPTS, uniqueKey: `storage-move:${move.id}` });
    if (job.isErr()) {
      await failBeforeSwitch(deps, move, new Error(`could not enqueue the move's job (${job.error.code})`));
      throw new Error(`could not enqueue storage move ${move.id}`, { cause: job.error });
    }
    return (await store.storageMoves.moves.transition(move.id, ["scheduled", "started"], { state: "scheduled", jobId: job.value.id }, clock.now())) ?? move;
  };

  return {
    schedule(kind, containerId, options = {}) {
      if (!isRecordId(containerId)) return errAsync(errors.notFound(THING[kind]));
      return fromStore(settleLatest(kind, containerId))
        .andThen(() =>
          inTransaction(store, (tx) =>
            scheduleInTransaction(deps, tx, kind, containerId, { destination: options.destination, ...(deps.jobsInStore ? { job: { enqueue: (moveId: number) => moveJobRecord(moveId, clock.now()) } } : {}) }, clock.now()),
          ),
        )
        .andThen((move) => (deps.jobsInStore ? okAsync(move) : fromStore(enqueueAfter(move))));
    },
    scheduleBulk(kind, options) {
      const messages: Record<string, string[]> = {};
      if (!isConfiguredStorage(deps, options.source)) messages["source_storage_name"] = [NOT_INCLUDED];
      if (options.destination !== undefined && !isConfiguredStorage(deps, options.destination)) messages["destination_storage_name"] = [NOT_INCLUDED];
      const { concurrency } = options;
      if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= MAX_BULK_CONCURRENCY)) {
        messages["concurrency"] = [`must be an integer from 1 to ${MAX_BULK_CONCURRENCY}`];
      }
      if (Object.keys(messages).length > 0) return errAsync(errors.validation(messages));
      const destination = checkDestination(deps, options.source, options.destination);
      if (destination.isErr()) return errAsync(destination.error);
      const payload: BulkPayload = {
        kind,
        source: options.source,
        ...(options.destination === undefined ? {} : { destination: options.destination }),
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      };
      return deps.jobs.enqueue(BULK_STORAGE_MOVE_JOB, payload);
    },
    find: findMove,
    list(kind, options = {}) {
      const page = options.page ?? 1;
      const perPage = options.perPage ?? 20;
      const filter = { kind, ...(options.containerId === undefined ? {} : { containerId: options.containerId }) };
      return fromStore(store.storageMoves.moves.list(filter, { kind: "offset", page, perPage }));
    },
    settle: (kind, id) => findMove(kind, id).andThen((move) => fromStore(settleMove(move))),
  };
}

/** The reference's not-found names. */
export const THING: Readonly<Record<StorageMoveKind, string>> = { project: "Project", snippet: "Snippet", group: "Group" };
