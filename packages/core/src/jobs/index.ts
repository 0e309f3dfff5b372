/** Durable background jobs: the `fk.jobs` service and the `fk.workers` pool over one registry (DESIGN §6). */
import type { JobRepository } from "../ports/jobs-store.js";
import type { Clock, Logger, Random } from "../ports/runtime.js";
import { defineMaintenance, type MaintenanceTasks } from "./maintenance.js";
import { JobRegistry } from "./registry.js";
import { jobsService, type JobsService } from "./service.js";
import { withOutboxWorkers } from "./outbox-workers.js";
import { createWorkers, type Workers } from "./workers.js";

export { backoffDelayMs } from "./backoff.js";
export { MAINTENANCE_KINDS, type MaintenanceTasks } from "./maintenance.js";
export { recurringKey, type RecurringJob } from "./recurring.js";
export { JobRegistry, type JobKind } from "./registry.js";
export type { EnqueueOptions, JobListOptions, JobPage, JobsService } from "./service.js";
export type { AttemptOutcome } from "./attempt.js";
export type { BackoffOptions, Job, JobContext, JobHandler, JobKindOptions } from "./types.js";
export { createWorkers, type StopOptions, type WorkerOptions, type Workers, type WorkersDeps } from "./workers.js";

/**
 * The jobs capability of one instance. `outbox` is the store's own jobs table when `jobs` is kept
 * apart from the store (BullMQ): the workers then drain it too (outbox-workers.ts).
 */
export function jobsCapability(deps: { jobs: JobRepository; outbox?: JobRepository; clock: Clock; random: Random; logger: Logger; maintenance: MaintenanceTasks }): { jobs: JobsService; workers: Workers } {
  const registry = new JobRegistry();
  const recurring = defineMaintenance(registry, deps.maintenance);
  const pool = (jobs: JobRepository, withRecurring: boolean) => createWorkers({ jobs, clock: deps.clock, random: deps.random, logger: deps.logger, registry, recurring: withRecurring ? recurring : [] });
  const workers = deps.outbox === undefined || deps.outbox === deps.jobs ? pool(deps.jobs, true) : withOutboxWorkers(pool(deps.jobs, true), pool(deps.outbox, false));
  return { jobs: jobsService({ jobs: deps.jobs, clock: deps.clock, registry }), workers };
}
