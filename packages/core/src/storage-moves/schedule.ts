/**
 * Scheduling a move (reference `RepositoryStorageMovable`, create-time validations and the
 * `schedule` transition). One transaction checks the container, makes it read-only (a
 * compare-and-set on "writable and still on the source shard", so of two racing schedules exactly
 * one wins) and inserts the move in state `scheduled` — with the job that will run it when the
 * jobs live in the store too. A container that is already read-only cannot be scheduled:
 * `{"message":{"project":["is read-only"]}}`.
 */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import type { NewJobRecord } from "../ports/jobs-store.js";
import type { StorageMove, StorageMoveKind } from "../ports/storage-moves-store.js";
import type { TransactionStore } from "../ports/store.js";
import { containerStorage } from "../repositories/locate.js";

/** Rails' inclusion message (reference: `validates … inclusion: { in: storage names }`). */
export const NOT_INCLUDED = "is not included in the list";
/** A move onto the shard it starts from would delete the only copy at cleanup. */
export const SAME_STORAGE = "must be different from source_storage_name";
export const READ_ONLY = "is read-only";

type Deps = Pick<ForgekitConfig, "repositoryStorage" | "repositoryStorages" | "defaultRepositoryStorage">;

/** Whether `name` is a configured shard. */
export const isConfiguredStorage = (deps: Pick<ForgekitConfig, "repositoryStorages">, name: string): boolean => Object.hasOwn(deps.repositoryStorages, name);

/**
 * The destination when none is given: the first configured shard other than the source (in
 * configuration order), or `null` when there is no other.
 */
export function defaultDestination(deps: Pick<ForgekitConfig, "repositoryStorages">, source: string): string | null {
  return Object.keys(deps.repositoryStorages).find((name) => name !== source) ?? null;
}

/** Validates a destination against the source: configured, and not the source itself. */
export function checkDestination(deps: Pick<ForgekitConfig, "repositoryStorages">, source: string, destination: string | undefined): Result<string, ForgekitError> {
  if (destination !== undefined) {
    if (!isConfiguredStorage(deps, destination)) return err(errors.validation({ destination_storage_name: [NOT_INCLUDED] }));
    if (destination === source) return err(errors.validation({ destination_storage_name: [SAME_STORAGE] }));
    return ok(destination);
  }
  const other = defaultDestination(deps, source);
  return other === null ? err(errors.validation({ destination_storage_name: [NOT_INCLUDED] })) : ok(other);
}

/** What {@link scheduleInTransaction} needs besides the container. */
export interface ScheduleOptions {
  destination?: string | undefined;
  /** Bulk moves: only a container still on this shard is scheduled. */
  source?: string;
  /** The job that runs the move (a bulk move's), or a job to enqueue in the same transaction. */
  job?: { id: number } | { enqueue: (moveId: number) => NewJobRecord };
}

/**
 * In `tx`: validates, makes the container read-only and inserts the move (`scheduled`). A validation
 * error leaves nothing written once the caller rolls back.
 */
export async function scheduleInTransaction(deps: Deps, tx: TransactionStore, kind: StorageMoveKind, containerId: number, options: ScheduleOptions, now: Date): Promise<Result<StorageMove, ForgekitError>> {
  const location = await containerStorage(deps, tx, kind, containerId);
  if (location.isErr()) return err(location.error);
  const source = location.value.storage;
  if (source === null) return err(errors.validation({ source_storage_name: [NOT_INCLUDED] }));
  if (options.source !== undefined && source !== options.source) return err(errors.validation({ source_storage_name: [NOT_INCLUDED] }));
  if (!isConfiguredStorage(deps, source)) return err(errors.validation({ source_storage_name: [NOT_INCLUDED] }));
  const destination = checkDestination(deps, source, options.destination);
  if (destination.isErr()) return err(destination.error);
  if (location.value.readOnly) return err(errors.validation({ [kind]: [READ_ONLY] }));
  // The compare-and-set that makes racing schedules safe: writable and still on the source.
  const locked = await tx.storageMoves.containers.update(kind, containerId, { readOnly: true }, { readOnly: false, storage: source });
  if (locked === null) return err(errors.validation({ [kind]: [READ_ONLY] }));
  const job = options.job;
  let move = await tx.storageMoves.moves.create(
    { kind, containerId, state: "scheduled", sourceStorage: source, destinationStorage: destination.value, jobId: job !== undefined && "id" in job ? job.id : null },
    now,
  );
  if (job !== undefined && "enqueue" in job) {
    const enqueued = await tx.jobs.enqueue(job.enqueue(move.id), now);
    if (enqueued === null) return err(errors.internal(new Error(`the job of storage move ${move.id} was not enqueued (unique key taken)`)));
    const withJob = await tx.storageMoves.moves.transition(move.id, ["scheduled"], { state: "scheduled", jobId: enqueued.id }, now);
    if (withJob === null) return err(errors.internal(new Error(`storage move ${move.id} changed inside its own transaction`)));
    move = withJob;
  }
  return ok(move);
}
