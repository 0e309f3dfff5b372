/**
 * Repository storage moves (spec "Repository storage moves"; reference §7): the `fk.storageMoves`
 * service, its background jobs and its routes.
 */
import type { GroupsService } from "../accounts/groups.js";
import type { ProjectsService } from "../accounts/projects.js";
import type { SnippetsService } from "../activity/snippets.js";
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { JobsService } from "../jobs/index.js";
import type { JobRepository } from "../ports/jobs-store.js";
import { defineStorageMoveJobs } from "./jobs.js";
import { storageMoveRoutes } from "./routes.js";
import { storageMovesService, type StorageMovesService } from "./service.js";

export { BULK_STORAGE_MOVE_JOB, STORAGE_MOVE_JOB } from "./jobs.js";
export { humanState } from "./entities.js";
export type { BulkMoveOptions, ScheduleMoveOptions, StorageMoveListOptions, StorageMovesService } from "./service.js";

/** Builds the service, registers its job kinds and returns its routes. */
export function storageMovesCapability(deps: {
  config: ForgekitConfig;
  jobs: JobsService;
  services: { projects: ProjectsService; groups: GroupsService; snippets: SnippetsService };
}): { service: StorageMovesService; routes: AnyRoute[] } {
  const { config, jobs } = deps;
  const jobRepository: JobRepository = config.jobs ?? config.store.jobs;
  defineStorageMoveJobs({ ...config, jobRepository }, jobs);
  const service = storageMovesService({ ...config, jobs, jobRepository, jobsInStore: config.jobs === undefined });
  return { service, routes: tagRoutes("Repository storage moves", storageMoveRoutes({ config, storageMoves: service, ...deps.services })) };
}
