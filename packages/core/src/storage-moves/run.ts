/**
 * Running one move, step by step, so that a worker killed anywhere resumes it (the job's retry)
 * and no step can leave a container half-switched:
 *
 * 1. `scheduled` → `started`.
 * 2. replicate to the destination with the port (idempotent: an existing copy is brought up to
 *    date), then verify: ref checksums equal on both shards (compared by the storage as it
 *    replicated when it says so, otherwise read here), and the copy whole (`verify`, e.g.
 *    `git rev-list --objects --all`, the connectivity check). The container still points at the source, read-only.
 * 3. ONE transaction: `started` → `replicated`, the container's storage switched to the
 *    destination and made writable — both or neither.
 * 4. delete the source copy, then `replicated` → `finished`.
 *
 * Failures: a failing step throws, and the job retries it with backoff. On the job's last attempt
 * a failure before the switch removes the destination copy and, in one transaction, marks the move
 * `failed` and makes the container writable on its source (reference: started → failed); a failed
 * cleanup marks it `cleanup_failed` (the container already works on the destination).
 */
import type { ForgekitConfig } from "../config.js";
import type { JobRepository } from "../ports/jobs-store.js";
import type { Logger } from "../ports/runtime.js";
import type { ReplicateResult, RepositoryRef } from "../ports/repository-storage.js";
import { FINAL_STORAGE_MOVE_STATES, type StorageMove, type StorageMoveState } from "../ports/storage-moves-store.js";
import type { Store } from "../ports/store.js";
import { REPOSITORY_KIND_OF } from "../repositories/locate.js";

export type RunDeps = Pick<ForgekitConfig, "store" | "repositoryStorage" | "clock" | "logger">;

/** How the job running the move lets it run its steps. */
export interface StepRunner {
  /** Renews the job's lease (stopping when cancelled or shutting down), then runs `fn`. */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** True on the job's last attempt: a failure then ends the move instead of being retried. */
  lastAttempt: boolean;
}

/** What became of a move after one run. */
export type MoveOutcome = "finished" | "failed" | "cleanup_failed";

/** The repository a move moves. */
export const repositoryOf = (move: Pick<StorageMove, "kind" | "containerId">): RepositoryRef => ({ kind: REPOSITORY_KIND_OF[move.kind], id: move.containerId });

const messageOf = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 2000 ? `${text.slice(0, 1997)}...` : text;
};

/** A step that threw: the move is retried, or ends failed on the last attempt. */
export class MoveStepFailed extends Error {
  constructor(
    readonly moveId: number,
    readonly stepName: string,
    cause: unknown,
  ) {
    super(`storage move ${moveId}: ${stepName} failed: ${messageOf(cause)}`, { cause });
    this.name = "MoveStepFailed";
  }
}

/**
 * Runs (or resumes) the move from its current state to a final one. Resolves the final state;
 * rejects with {@link MoveStepFailed} when a step failed and the job may retry it, or with the
 * step runner's interruption (cancel, shutdown, lost lease), which the job runner handles.
 */
export async function runMove(deps: RunDeps, moveId: number, runner: StepRunner): Promise<MoveOutcome | "gone"> {
  const { store, clock } = deps;
  let move = await store.storageMoves.moves.findById(moveId);
  if (move === null) return "gone";
  const advance = async (from: StorageMoveState[], to: StorageMoveState): Promise<StorageMove> => {
    const next = await store.storageMoves.moves.transition(moveId, from, { state: to }, clock.now());
    // Lost a race (another worker took the job over): read what it made of the move.
    return next ?? (await store.storageMoves.moves.findById(moveId)) ?? (move as StorageMove);
  };
  if (move.state === "initial") move = await advance(["initial"], "scheduled");
  if (move.state === "scheduled") move = await advance(["scheduled"], "started");
  if (move.state === "started") {
    const current = move;
    try {
      await runner.step("replicate", () => replicateAndVerify(deps, current));
      move = await runner.step("switch", () => switchContainer(store, current, clock.now()));
    } catch (error) {
      if (!(error instanceof MoveStepFailed)) throw error;
      if (!runner.lastAttempt) throw error;
      await failBeforeSwitch(deps, current, error);
      return "failed";
    }
  }
  if (move.state === "replicated") {
    const current = move;
    try {
      await runner.step("cleanup", () => cleanupSource(deps, current));
    } catch (error) {
      if (!(error instanceof MoveStepFailed)) throw error;
      if (!runner.lastAttempt) throw error;
      await store.storageMoves.moves.transition(moveId, ["replicated"], { state: "cleanup_failed", errorMessage: messageOf(error.cause) }, clock.now());
      deps.logger.log("warn", "storage_moves.cleanup_failed", { moveId, kind: current.kind, containerId: current.containerId, storage: current.sourceStorage, error: messageOf(error.cause) });
      return "cleanup_failed";
    }
    move = await advance(["replicated"], "finished");
  }
  return FINAL_STORAGE_MOVE_STATES.includes(move.state) ? (move.state as MoveOutcome) : "gone";
}

/** Copies the repository to the destination and checks the copy; throws {@link MoveStepFailed}. */
async function replicateAndVerify(deps: RunDeps, move: StorageMove): Promise<void> {
  const storage = deps.repositoryStorage;
  const ref = repositoryOf(move);
  let replicated: void | ReplicateResult;
  try {
    replicated = await storage.replicate(ref, move.sourceStorage, move.destinationStorage);
  } catch (error) {
    throw new MoveStepFailed(move.id, "replicate", error);
  }
  try {
    // A storage that compared the checksums as it replicated says so; any other is checked here.
    if (typeof replicated?.checksum !== "string") {
      const [source, copy] = await Promise.all([storage.checksum(move.sourceStorage, ref), storage.checksum(move.destinationStorage, ref)]);
      if (source === null) throw new Error(`the repository is missing on ${move.sourceStorage}`);
      if (copy === null) throw new Error(`the copy is missing on ${move.destinationStorage}`);
      if (source !== copy) throw new Error(`ref checksums differ: ${move.sourceStorage} ${source}, ${move.destinationStorage} ${copy}`);
    }
    await storage.verify?.(move.destinationStorage, ref);
  } catch (error) {
    throw new MoveStepFailed(move.id, "verify", error);
  }
}

/** The one transaction of the switch: move `replicated`, container on the destination and writable. */
async function switchContainer(store: Store, move: StorageMove, now: Date): Promise<StorageMove> {
  try {
    return await store.transaction(async (tx) => {
      const replicated = await tx.storageMoves.moves.transition(move.id, ["started"], { state: "replicated" }, now);
      if (replicated === null) {
        // Another worker switched it already (this one lost its lease meanwhile): nothing to write.
        const current = await tx.storageMoves.moves.findById(move.id);
        if (current === null || current.state === "started") throw new Error("the move vanished or went back to started");
        return current;
      }
      const switched = await tx.storageMoves.containers.update(move.kind, move.containerId, { storage: move.destinationStorage, readOnly: false }, { storage: move.sourceStorage });
      // Throwing rolls the state change back too: never a move `replicated` with its container on the source.
      if (switched === null) throw new Error(`the ${move.kind} is gone or no longer on ${move.sourceStorage}`);
      return replicated;
    });
  } catch (error) {
    throw new MoveStepFailed(move.id, "switch", error);
  }
}

async function cleanupSource(deps: RunDeps, move: StorageMove): Promise<void> {
  try {
    await deps.repositoryStorage.delete(move.sourceStorage, repositoryOf(move));
  } catch (error) {
    throw new MoveStepFailed(move.id, "cleanup", error);
  }
}

/**
 * Ends a move that failed before its switch: removes the destination's copy (the container never
 * pointed at it), then — in one transaction — `failed` with the reason and the container writable
 * on its source. The copy goes first: once writable, a new move may start copying there again.
 */
export async function failBeforeSwitch(deps: RunDeps, move: StorageMove, error: unknown): Promise<void> {
  const reason = error instanceof MoveStepFailed ? messageOf(error.cause) : messageOf(error);
  await removeCopy(deps, move);
  const { store, clock } = deps;
  await store.transaction(async (tx) => {
    const failed = await tx.storageMoves.moves.transition(move.id, ["initial", "scheduled", "started"], { state: "failed", errorMessage: reason }, clock.now());
    if (failed === null) return;
    await tx.storageMoves.containers.update(move.kind, move.containerId, { readOnly: false }, { storage: move.sourceStorage });
  });
  deps.logger.log("warn", "storage_moves.failed", { moveId: move.id, kind: move.kind, containerId: move.containerId, error: reason });
}

/** Best effort: a copy left behind is only disk space (a later move brings it up to date). */
async function removeCopy(deps: { repositoryStorage: RunDeps["repositoryStorage"]; logger: Logger; store: Store }, move: StorageMove): Promise<void> {
  const container = await deps.store.storageMoves.containers.find(move.kind, move.containerId);
  // Only while the container is not on the destination: never delete the copy it uses.
  if (container !== null && container.storage === move.destinationStorage) return;
  try {
    await deps.repositoryStorage.delete(move.destinationStorage, repositoryOf(move));
  } catch (cause) {
    deps.logger.log("warn", "storage_moves.copy_left", { moveId: move.id, storage: move.destinationStorage, error: messageOf(cause) });
  }
}

/**
 * Settles a move whose job ended (succeeded, failed, cancelled) or vanished without finishing it —
 * its worker died on the last attempt, or someone cancelled the job: before the switch → `failed`
 * and the container writable on its source; after it → `cleanup_failed`. Other moves are returned
 * as they are.
 */
export async function settleOrphan(deps: RunDeps, jobs: Pick<JobRepository, "findById">, move: StorageMove): Promise<StorageMove> {
  if (FINAL_STORAGE_MOVE_STATES.includes(move.state) || move.jobId === null) return move;
  const job = await jobs.findById(move.jobId);
  if (job !== null && (job.state === "queued" || job.state === "running")) return move;
  if (move.state === "replicated") {
    await deps.store.storageMoves.moves.transition(move.id, ["replicated"], { state: "cleanup_failed", errorMessage: "the job running the move ended before the source copy was removed" }, deps.clock.now());
  } else {
    await failBeforeSwitch(deps, move, new Error("the job running the move ended before it finished"));
  }
  return (await deps.store.storageMoves.moves.findById(move.id)) ?? move;
}

/** Settles the container's newest move if its job ended without finishing it ({@link settleOrphan}). */
export async function settleLatestMove(deps: RunDeps, jobs: Pick<JobRepository, "findById">, kind: StorageMove["kind"], containerId: number): Promise<void> {
  const latest = await deps.store.storageMoves.moves.latestFor(kind, containerId);
  if (latest !== null) await settleOrphan(deps, jobs, latest);
}
