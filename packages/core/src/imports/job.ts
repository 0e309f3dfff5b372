/**
 * The `imports.project` job: runs a project import's stages (imports/extforge/stages.ts,
 * imports/extserver/stages.ts) and moves its state `scheduled` → `started` → `finished` | `failed`
 * (spec "States and transitions"). The payload holds only the project id; the credentials are read
 * from the import row and cleared when it ends.
 *
 * - Cancelled (`POST /import/extforge/cancel`): the next page write sees the import is no longer
 *   `started` (and the job runner stops at its next step): nothing more is written.
 * - Rate limited: the job schedules its successor at the limit's reset and ends; the successor
 *   resumes at the checkpoint (the import's `jobId` names it).
 * - A refusal by the external service (401, 403, 404, a blocked address) fails the import at once;
 *   other failures are retried with backoff, and the last attempt's failure fails the import.
 */
import type { Project } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import type { JobContext, JobHandler } from "../jobs/types.js";
import type { ProjectImport } from "../ports/imports-store.js";
import { credentialsBox, type ImportCredentials } from "./credentials.js";
import { externalFailureOf } from "./external-failure.js";
import { restExtForge } from "./extforge/client.js";
import { runForgeStages, type ForgeImportOptions } from "./extforge/stages.js";
import { fetchExtServer } from "./extserver/client.js";
import { runServerStages, type ServerImportOptions } from "./extserver/stages.js";
import { ImportRun, ImportStopped } from "./run-kit.js";

export const IMPORT_JOB_KIND = "imports.project";
/** Attempts of one import job before the import fails (retries cover network trouble and restarts). */
export const IMPORT_JOB_ATTEMPTS = 5;

/** The job's payload. */
export interface ImportJobPayload {
  projectId: number;
}

/** Failures the external service will answer the same way next time. */
const PERMANENT = new Set(["unauthorized", "forbidden", "not_found", "blocked_url"]);
const ERROR_MAX = 1000;

/** The message kept as `import_error`: the failure's own (never a secret), cut to 1000 characters. */
function errorText(error: unknown, secrets: readonly string[]): string {
  const failure = externalFailureOf(error);
  let text = failure !== undefined ? failure.message + (failure.detail === undefined ? "" : `: ${failure.detail}`) : error instanceof Error ? error.message : String(error);
  for (const secret of secrets) if (secret !== "") text = text.split(secret).join("[REDACTED]");
  return text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX - 3)}...` : text;
}

/** Builds the external clients of an import from its stored options and credentials. */
function clientsFor(config: ForgekitConfig, record: ProjectImport, credentials: ImportCredentials) {
  const guard = { allowLocalNetwork: config.imports.allowLocalNetwork, ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }), clock: config.clock };
  const options = JSON.parse(record.options) as ForgeImportOptions & ServerImportOptions;
  if (record.source === "extforge") {
    const client = (config.imports.extForge ?? restExtForge)({ token: credentials.token, ...(options.hostname === undefined ? {} : { hostname: options.hostname }), ...guard });
    return { source: "extforge" as const, client, options };
  }
  const client = (config.imports.extServer ?? fetchExtServer)({ url: record.url, username: credentials.username ?? "", token: credentials.token, ...guard });
  return { source: "extserver" as const, client, options };
}

/** The handler of `imports.project`. */
export function importJobHandler(config: ForgekitConfig): JobHandler<ImportJobPayload> {
  const { store, clock } = config;
  const box = credentialsBox(config);

  const end = async (projectId: number, jobId: number, status: "finished" | "failed", error: string | null) => {
    await store.transaction(async (tx) => {
      const current = await tx.imports.projects.find(projectId);
      if (current?.jobId !== jobId) return;
      await tx.imports.projects.update(projectId, ["scheduled", "started"], { status, error, credentials: null }, clock.now());
    });
  };

  return async (ctx: JobContext<ImportJobPayload>) => {
    const projectId = ctx.payload.projectId;
    let record = await store.imports.projects.find(projectId);
    const project: Project | null = await store.projects.findById(projectId);
    // Jobs kept apart from the store: the first job may run before its id is written on the import
    // (imports/service.ts); being the only job of an import without one, it adopts it.
    if (record !== null && record.jobId === null && record.status === "scheduled") record = (await store.imports.projects.update(projectId, ["scheduled"], { jobId: ctx.job.id }, clock.now())) ?? (await store.imports.projects.find(projectId));
    // Superseded (a rate-limit successor holds the import), ended, or gone: nothing to do.
    if (record === null || project === null || record.jobId !== ctx.job.id) return;
    if (record.status !== "scheduled" && record.status !== "started") return;
    if (record.status === "scheduled") {
      record = await store.imports.projects.update(projectId, ["scheduled"], { status: "started" }, clock.now());
      if (record === null) return;
    }
    const credentials = record.credentials === null ? null : box.open(record.credentials);
    if (credentials === null) {
      await end(projectId, ctx.job.id, "failed", "The import's credentials cannot be read (was the key-encryption key changed?)");
      return;
    }
    const secrets = [credentials.token, ...(credentials.username === undefined ? [] : [])];
    const run = new ImportRun(config, ctx, project, record);
    try {
      const clients = clientsFor(config, record, credentials);
      if (clients.source === "extforge") await runForgeStages(run, clients.client, clients.options, secrets);
      else await runServerStages(run, clients.client, clients.options, secrets);
      await end(projectId, ctx.job.id, "finished", null);
    } catch (error) {
      if (error instanceof ImportStopped) return;
      // Stopping, cancelled or the lease lost: the runner records that (the import resumes or stays cancelled).
      if (ctx.signal.aborted) throw error;
      const failure = externalFailureOf(error);
      if (failure?.reason === "rate_limited") {
        await reschedule(config, ctx, projectId, failure.resetAt);
        return;
      }
      const permanent = failure !== undefined && PERMANENT.has(failure.reason);
      if (!permanent && ctx.attempt < ctx.job.maxAttempts) throw new Error(errorText(error, secrets));
      await end(projectId, ctx.job.id, "failed", errorText(error, secrets));
    }
  };
}

/** Hands the import to a new job due at the rate limit's reset (one second after it; a minute when unknown). */
async function reschedule(config: ForgekitConfig, ctx: JobContext<ImportJobPayload>, projectId: number, resetAt: Date | undefined): Promise<void> {
  const now = config.clock.now();
  const runAfter = new Date(Math.max(now.getTime(), (resetAt ?? new Date(now.getTime() + 60_000)).getTime()) + 1000);
  const successor = { kind: IMPORT_JOB_KIND, payload: JSON.stringify({ projectId }), maxAttempts: ctx.job.maxAttempts, runAfter };
  // Jobs kept apart from the store (BullMQ) are queued first; if this job no longer holds the import, the successor finds that and does nothing.
  const apart = config.jobs === undefined ? undefined : await config.jobs.enqueue(successor, now);
  await config.store.transaction(async (tx) => {
    const current = await tx.imports.projects.find(projectId);
    if (current?.status !== "started" || current.jobId !== ctx.job.id) return;
    const next = apart === undefined ? await tx.jobs.enqueue(successor, now) : apart;
    if (next === null) throw new Error("the import's next job could not be queued");
    await tx.imports.projects.update(projectId, ["started"], { jobId: next.id }, now);
  });
  config.logger.log("info", "imports.rate_limited", { projectId, resumesAt: runAfter.toISOString() });
}
