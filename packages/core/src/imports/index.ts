/**
 * The imports capability (issue 10): projects from the external forge (GitHub REST v3) and the
 * external repository server (Bitbucket Server REST 1.0), gists into snippets, cancel and status;
 * the service, the durable jobs that run imports, and the routes.
 */
import type { ProjectsService } from "../accounts/projects.js";
import type { ForgekitConfig } from "../config.js";
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { JobsService } from "../jobs/service.js";
import { gistsJobHandler, GISTS_JOB_KIND } from "./gists.js";
import { importJobHandler, IMPORT_JOB_ATTEMPTS, IMPORT_JOB_KIND } from "./job.js";
import { importRoutes } from "./routes/imports.js";
import { importsService, type ImportsService } from "./service.js";

export { GISTS_JOB_KIND, GIST_FILES_MAX, startGistsImport } from "./gists.js";
export { IMPORT_JOB_KIND } from "./job.js";
// The project uploads folder, shared with `POST /projects/:id/uploads` (uploads/).
export { storeUpload, UPLOAD_FILENAME, UPLOAD_SECRET, UPLOADS_DIRECTORY } from "./attachments.js";
export { IMPORT_MESSAGES, importsService, type ForgeImportInput, type ImportsService, type ImportView, type ServerImportInput } from "./service.js";
export { importsOptionsSchema, type ImportsOptions } from "./options.js";

/** Builds the service, defines the import job kinds on `jobs`, and returns the routes. */
export function importsCapability(config: ForgekitConfig, deps: { jobs: JobsService; projects: ProjectsService }): { imports: ImportsService; routes: AnyRoute[] } {
  const imports = importsService(config);
  const defined = [
    deps.jobs.define(IMPORT_JOB_KIND, importJobHandler(config), { maxAttempts: IMPORT_JOB_ATTEMPTS, backoff: { baseMs: 5_000, maxMs: 10 * 60_000 } }),
    deps.jobs.define(GISTS_JOB_KIND, gistsJobHandler(config), { maxAttempts: 5, backoff: { baseMs: 5_000, maxMs: 10 * 60_000 } }),
  ];
  for (const result of defined) if (result.isErr()) throw new Error(`imports: job kind refused (${result.error.code})`);
  return { imports, routes: tagRoutes("Imports", importRoutes({ config, imports, projects: deps.projects })) };
}
// The URL guard and guarded fetch, shared with webhook deliveries (webhooks/).
export { checkUrl, displayUrl, type HostLookup, type UrlGuardOptions, type UrlRefusal } from "./url-guard.js";
export { guardedFetch, isBlockedUrlError } from "./guarded-fetch.js";
export { credentialsBox, type CredentialsBox } from "./credentials.js";
