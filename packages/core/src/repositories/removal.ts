/**
 * Deleting the repositories of removed containers (issue 9 §1: "Deleting a container removes its
 * repository"). The rows go first, in one transaction (`projects.remove`, `namespaces.removeGroup`);
 * the repositories are deleted once that committed, so a failure never leaves a row without its
 * repository. A repository that cannot be deleted then (a shard briefly unavailable, a git or
 * filesystem error) is logged and handed to the `repositories.remove` job, which retries with
 * backoff until it is gone. The job deletes only what no row owns: container ids are never reused,
 * and it checks again before deleting.
 */
import type { ForgekitConfig } from "../config.js";
import type { JobContext, JobsService } from "../jobs/index.js";
import type { RepositoryKind } from "../ports/repository-storage.js";
import type { RemovedRepository } from "../ports/store.js";
import { CONTAINER_KIND_OF, locateRepository } from "./locate.js";

/** The job kind that retries a repository deletion. */
export const REMOVE_REPOSITORY_JOB = "repositories.remove";
const ATTEMPTS = 10;
const BACKOFF = { baseMs: 5_000, factor: 2, maxMs: 3_600_000 };

type Deps = Pick<ForgekitConfig, "store" | "repositoryStorage" | "repositoryStorages" | "defaultRepositoryStorage" | "logger">;

/** Deletes repositories of removed containers, with a durable retry. */
export interface RepositoryRemoval {
  /** Deletes each repository (call after the removal committed); failures are logged and queued for retry, never thrown. */
  removeAll(removed: readonly RemovedRepository[]): Promise<void>;
  /** Registers the retry job kind on the instance's jobs (called once, when they exist). */
  useJobs(jobs: JobsService): void;
}

const KINDS: readonly RepositoryKind[] = ["project", "snippet", "group-wiki"];

/** Whether a job payload names a repository. */
function isRemovedRepository(value: unknown): value is RemovedRepository {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return KINDS.includes(v["kind"] as RepositoryKind) && Number.isSafeInteger(v["id"]) && (v["storage"] === null || typeof v["storage"] === "string");
}

/** Builds the removal over the instance's storage port. */
export function repositoryRemoval(deps: Deps): RepositoryRemoval {
  let jobs: JobsService | undefined;

  /** Deletes one repository; rejects when storage fails. A repository of a container that exists again is left alone. */
  async function remove(repository: RemovedRepository): Promise<void> {
    const ref = { kind: repository.kind, id: repository.id };
    if ((await deps.store.storageMoves.containers.find(CONTAINER_KIND_OF[repository.kind], repository.id)) !== null) return;
    let storage = repository.storage;
    if (storage === null) {
      const found = await locateRepository(deps, ref);
      if (found.isErr()) throw "cause" in found.error ? found.error.cause : new Error(found.error.code);
      storage = found.value;
    }
    if (storage !== null) await deps.repositoryStorage.delete(storage, ref);
  }

  async function retryLater(repository: RemovedRepository, cause: unknown): Promise<void> {
    const context = { kind: repository.kind, id: repository.id, storage: repository.storage, error: cause instanceof Error ? cause.message : String(cause) };
    if (jobs === undefined) {
      deps.logger.log("error", "repositories.remove_failed", { ...context, retry: "none: the instance has no jobs" });
      return;
    }
    const queued = await jobs.enqueue(REMOVE_REPOSITORY_JOB, repository, { uniqueKey: `${REMOVE_REPOSITORY_JOB}:${repository.kind}:${repository.id}` });
    deps.logger.log("error", "repositories.remove_failed", { ...context, retry: queued.isOk() ? `job ${queued.value.id}` : `could not queue: ${queued.error.code}` });
  }

  return {
    async removeAll(removed) {
      for (const repository of removed) {
        try {
          await remove(repository);
        } catch (cause) {
          try {
            await retryLater(repository, cause);
          } catch (queueFailure) {
            deps.logger.log("error", "repositories.remove_failed", { kind: repository.kind, id: repository.id, error: queueFailure instanceof Error ? queueFailure.message : String(queueFailure) });
          }
        }
      }
    },
    useJobs(instanceJobs) {
      jobs = instanceJobs;
      const defined = instanceJobs.define(
        REMOVE_REPOSITORY_JOB,
        async (ctx: JobContext<unknown>) => {
          // A payload this code did not write is dropped, not retried.
          if (!isRemovedRepository(ctx.payload)) return;
          await remove(ctx.payload);
        },
        { maxAttempts: ATTEMPTS, backoff: BACKOFF },
      );
      if (defined.isErr()) throw new Error(`${REMOVE_REPOSITORY_JOB}: ${JSON.stringify(defined.error)}`);
    },
  };
}
