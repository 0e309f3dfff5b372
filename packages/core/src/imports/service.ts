/**
 * `fk.imports`: start a project import from the external forge or the external repository server,
 * cancel it, read its status (spec "Import"; reference §3, §4; issue 10 §1). Starting checks, in the
 * reference's order: the URL guard (400 "Invalid URL: …"), the target namespace (422), the caller's
 * right to import there (422; the repository server answers 401), the external repository (401 for
 * a refused token, 422 when it cannot be read, 429 on the rate limit); then the project, its empty
 * repository, the import row and its job are written in one transaction.
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { hasGroupAccess, hasProjectAccess, visibleProject } from "../access/permissions.js";
import { attempt } from "../accounts/service-kit.js";
import { insertProject } from "../accounts/projects.js";
import { AccessLevel, type Namespace, type Project, type User, type Visibility } from "../accounts/types.js";
import { pathFromName } from "../accounts/validation.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError, type ValidationMessages } from "../errors.js";
import { isRecordId } from "../ids.js";
import type { ImportSourceKind, ProjectImport } from "../ports/imports-store.js";
import type { TransactionStore } from "../ports/store.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import { credentialsBox, type ImportCredentials } from "./credentials.js";
import { importEntity, importStatusEntity } from "./entity.js";
import { externalFailureOf, type ExternalFailure } from "./external-failure.js";
import { extForgeApiUrl, restExtForge } from "./extforge/client.js";
import { FORGE_STAGES, type ForgeImportOptions, type ForgeOptionalStages } from "./extforge/stages.js";
import type { ExtForgeRepository } from "./extforge/types.js";
import { fetchExtServer } from "./extserver/client.js";
import { SERVER_STAGES, type ServerImportOptions } from "./extserver/stages.js";
import { parseCheckpoint } from "./run-kit.js";
import type { ExtServerRepository } from "./extserver/types.js";
import { IMPORT_JOB_ATTEMPTS, IMPORT_JOB_KIND } from "./job.js";
import { checkUrl, displayUrl } from "./url-guard.js";

/** The reference's messages (reference §3.1, §3.2, §4). */
export const IMPORT_MESSAGES = {
  namespaceMissing: "Namespace or group to import repository into does not exist.",
  namespaceForbidden: "You are not allowed to import projects in this namespace.",
  serverForbidden: "You don't have permissions to import this project",
  tokenNoAccess:
    "Your GitHub personal access token does not have read access to the repository. Please use a classic GitHub personal access token with the `repo` scope. Fine-grained tokens are not supported.",
  forgeError: (detail: string, status: number | undefined) => `Import failed because of a GitHub error: ${detail}${status === undefined ? "" : ` (HTTP ${status})`}`,
  serverError: (detail: string) => `Import failed due to a BitBucket Server error: ${detail}`,
  serverNotFound: (key: string, slug: string) => `Project ${key}/${slug} could not be found`,
  cannotCancel: (status: string) => `The import cannot be canceled because it is ${status}`,
  attachmentsUnsupported: "attachments_import is not supported by this repository storage: Markdown attachments stay links to the forge.",
} as const;

/** Input of {@link ImportsService.startForge}. */
export interface ForgeImportInput {
  token: string;
  repoId: number;
  /** Full path of an existing namespace (a leading `/` is ignored). */
  targetNamespace: string;
  newName?: string;
  /** `extforge_hostname`: a GitHub Enterprise host; absent → the public forge. */
  hostname?: string;
  optionalStages?: ForgeOptionalStages;
}

/** Input of {@link ImportsService.startServer}. */
export interface ServerImportInput {
  url: string;
  username: string;
  token: string;
  projectKey: string;
  repoSlug: string;
  newName?: string;
  /** Omitted → the caller's personal namespace. */
  targetNamespace?: string;
}

/** An import as the routes render it. */
export interface ImportView {
  project: Project;
  /** Names of the namespace chain, root first (for `full_name`). */
  namespaceNames: string[];
  record: ProjectImport;
  /** Shown as `import_warning` in the import result (null: none). */
  warning?: string | null;
}

export interface ImportsService {
  /** Starts an import from the forge as `user`; the import result (status `scheduled`). */
  startForge(user: User, input: ForgeImportInput): ResultAsync<ImportView, ForgekitError>;
  /** Starts an import from the repository server as `user`. */
  startServer(user: User, input: ServerImportInput): ResultAsync<ImportView, ForgekitError>;
  /** Cancels a forge import (Owner only): 404 when not a forge import, 400 when it already ended. */
  cancel(user: User, projectId: number): ResultAsync<ImportView, ForgekitError>;
  /** The import state of a project the user may administer (Maintainer): `GET /projects/:id/import`'s entity. */
  status(user: User | null, project: Project): ResultAsync<Record<string, unknown>, ForgekitError>;
  /** The same without a permission check (host and CLI). */
  statusOf(project: Project): ResultAsync<Record<string, unknown>, ForgekitError>;
  /** Renders an import view as the import result entity. */
  entity(view: ImportView, warning?: string | null): Record<string, unknown>;
}

const stripSlash = (path: string) => path.trim().replace(/^\/+/, "").replace(/\/+$/, "");

/** The namespace chain's names, root first. */
async function namespaceNames(tx: Pick<TransactionStore, "namespaces">, namespace: Namespace): Promise<string[]> {
  const ancestors = await tx.namespaces.ancestors(namespace.id);
  return [...ancestors.reverse().map((n) => n.name), namespace.name];
}

/** Flattens validation messages to "Path has already been taken, Name …" (reference: full messages joined by ", "). */
function fullMessages(messages: ValidationMessages): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(messages)) {
    const label = field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, " ");
    if (Array.isArray(value)) for (const m of value) parts.push(`${label} ${m}`);
    else parts.push(`${label} ${fullMessages(value)}`);
  }
  return parts.join(", ");
}

/** The visibility an imported project gets: the source's, never more open than its group. */
function importedVisibility(source: Visibility, namespace: Namespace): Visibility {
  if (namespace.kind !== "group") return source;
  const order: Visibility[] = ["private", "internal", "public"];
  return order[Math.min(order.indexOf(source), order.indexOf(namespace.visibility))] ?? "private";
}

/** Builds `fk.imports`. */
export function importsService(config: ForgekitConfig): ImportsService {
  const { store, clock } = config;
  const box = credentialsBox(config);
  const guard = { allowLocalNetwork: config.imports.allowLocalNetwork, ...(config.imports.lookup === undefined ? {} : { lookup: config.imports.lookup }) };

  /** The namespace the user may import into (`mode` decides the reference's status for a refusal). */
  const targetNamespace = async (user: User, path: string, mode: ImportSourceKind): Promise<Result<Namespace, ForgekitError>> => {
    const namespace = await store.namespaces.findByFullPath(stripSlash(path));
    if (namespace === null) return err(errors.unprocessable(IMPORT_MESSAGES.namespaceMissing));
    const refuse = mode === "extforge" ? errors.unprocessable(IMPORT_MESSAGES.namespaceForbidden) : errors.unprocessable(IMPORT_MESSAGES.serverForbidden);
    if (namespace.kind === "user") {
      // Never into a bot user's namespace (spec "Import" rule 2); otherwise only one's own (or an administrator).
      const owner = namespace.ownerId === null ? null : await store.users.findById(namespace.ownerId);
      if (owner === null || owner.bot !== null) return err(refuse);
      return owner.id === user.id || user.admin ? ok(namespace) : err(refuse);
    }
    return (await hasGroupAccess(store, user, namespace as Namespace & { kind: "group" }, AccessLevel.Maintainer, clock.now())) ? ok(namespace) : err(refuse);
  };

  /**
   * Jobs kept apart from the store (`config.jobs`, e.g. BullMQ) cannot join its transaction: the
   * import's job is then queued just after the commit and its id written on the import (the job adopts
   * an import without one if it runs first: job.ts). If queueing fails, the import fails at once.
   */
  const apartJobs = config.jobs;
  const queueApart = async (view: ImportView): Promise<Result<ImportView, ForgekitError>> => {
    if (apartJobs === undefined) return ok(view);
    const projectId = view.project.id;
    const now = clock.now();
    const job = await apartJobs.enqueue({ kind: IMPORT_JOB_KIND, payload: JSON.stringify({ projectId }), maxAttempts: IMPORT_JOB_ATTEMPTS, runAfter: now }, now).catch(() => null);
    if (job === null) {
      await store.imports.projects.update(projectId, ["scheduled"], { status: "failed", error: "the import job could not be queued", credentials: null }, clock.now());
      return err(errors.internal(new Error("the import job could not be queued")));
    }
    const linked = await store.imports.projects.update(projectId, ["scheduled"], { jobId: job.id }, clock.now());
    return ok({ ...view, record: linked ?? (await store.imports.projects.find(projectId)) ?? view.record });
  };

  /** Creates the project, its empty repository, the import row and (with the jobs in the store) its job, in one transaction. */
  const create = (
    user: User,
    namespace: Namespace,
    source: ImportSourceKind,
    fields: Parameters<typeof createRows>[3],
  ): ResultAsync<ImportView, ForgekitError> => createRows(user, namespace, source, fields).andThen((view) => new ResultAsync(queueApart(view)));

  const createRows = (
    user: User,
    namespace: Namespace,
    source: ImportSourceKind,
    fields: { name: string; description: string; visibility: Visibility; defaultBranch: string | null; importSource: string; url: string; options: ForgeImportOptions | ServerImportOptions; credentials: ImportCredentials },
  ): ResultAsync<ImportView, ForgekitError> =>
    inTransactionWithRepository(config, async (tx) => {
      const now = clock.now();
      const path = pathFromName(fields.name);
      const inserted = await insertProject(
        tx,
        { namespaceId: namespace.id, name: fields.name, path, description: fields.description, visibility: importedVisibility(fields.visibility, namespace), creatorId: user.id, repositoryStorage: config.defaultRepositoryStorage, defaultBranch: fields.defaultBranch, repositoryReadOnly: false },
        now,
      );
      if (inserted.isErr()) {
        const e = inserted.error;
        return err(e.code === "validation" ? errors.unprocessable(fullMessages(e.messages)) : e);
      }
      const project = inserted.value;
      const job = apartJobs === undefined ? await tx.jobs.enqueue({ kind: IMPORT_JOB_KIND, payload: JSON.stringify({ projectId: project.id }), maxAttempts: IMPORT_JOB_ATTEMPTS, runAfter: now }, now) : undefined;
      if (job === null) return err(errors.internal(new Error("the import job could not be queued")));
      const record = await tx.imports.projects.create(
        { projectId: project.id, source, importSource: fields.importSource, url: fields.url, userId: user.id, options: JSON.stringify(fields.options), credentials: box.seal(fields.credentials), jobId: job?.id ?? null },
        now,
      );
      if (record === null) return err(errors.internal(new Error("the new project already had an import")));
      const view: ImportView = { project, namespaceNames: await namespaceNames(tx, namespace), record };
      return ok({ value: view, repository: { storage: project.repositoryStorage, ref: { kind: "project" as const, id: project.id }, options: { defaultBranch: fields.defaultBranch ?? "main" } } });
    });

  /** The forge's repository, or the reference's answer for why it cannot be read. */
  const forgeRepository = async (input: ForgeImportInput): Promise<Result<ExtForgeRepository, ForgekitError>> => {
    const client = (config.imports.extForge ?? restExtForge)({ token: input.token, ...(input.hostname === undefined ? {} : { hostname: input.hostname }), ...guard, clock });
    try {
      return ok(await client.repository(input.repoId));
    } catch (error) {
      const failure = externalFailureOf(error);
      if (failure === undefined) throw error;
      return err(forgeError(failure, input.hostname));
    }
  };

  return {
    startForge(user, input) {
      return attempt(async () => {
        if (input.hostname !== undefined) {
          let api: string;
          try {
            api = extForgeApiUrl(input.hostname);
          } catch {
            return err(errors.badRequestMessage(`Invalid URL: ${displayUrl(input.hostname)}`));
          }
          const checked = await checkUrl(api, guard);
          if (checked.isErr()) return err(errors.badRequestMessage(`Invalid URL: ${displayUrl(input.hostname)}`));
        }
        const namespace = await targetNamespace(user, input.targetNamespace, "extforge");
        if (namespace.isErr()) return err(namespace.error);
        const repository = await forgeRepository(input);
        if (repository.isErr()) return err(repository.error);
        const repo = repository.value;
        const options: ForgeImportOptions = { repoId: input.repoId, optionalStages: input.optionalStages ?? {}, ...(input.hostname === undefined ? {} : { hostname: input.hostname }) };
        const created = create(user, namespace.value, "extforge", {
          name: input.newName ?? repo.name,
          description: repo.description ?? "",
          visibility: repo.private ? "private" : repo.visibility === "internal" ? "internal" : "public",
          defaultBranch: repo.defaultBranch,
          importSource: repo.fullName,
          url: extForgeApiUrl(input.hostname),
          options,
          credentials: { token: input.token },
        });
        // Attachments are stored in the repository's directory: a repository storage without local directories
        // has nowhere to keep them, and the import says so instead of dropping the option silently.
        return input.optionalStages?.attachments_import === true && config.repositoryStorage.localPath === undefined ? created.map((view) => ({ ...view, warning: IMPORT_MESSAGES.attachmentsUnsupported })) : created;
      });
    },

    startServer(user, input) {
      return attempt(async () => {
        const checked = await checkUrl(input.url, guard);
        if (checked.isErr()) return err(errors.badRequestMessage(checked.error.message));
        const namespacePath = input.targetNamespace === undefined || stripSlash(input.targetNamespace) === "" ? null : input.targetNamespace;
        let namespace: Result<Namespace, ForgekitError>;
        if (namespacePath === null) {
          const own = user.namespaceId === null ? null : await store.namespaces.findById(user.namespaceId);
          namespace = own === null ? err(errors.unprocessable(IMPORT_MESSAGES.namespaceMissing)) : ok(own);
        } else namespace = await targetNamespace(user, namespacePath, "extserver");
        if (namespace.isErr()) return err(namespace.error);
        const url = displayUrl(input.url).replace(/\/+$/, "");
        const client = (config.imports.extServer ?? fetchExtServer)({ url, username: input.username, token: input.token, ...guard, clock });
        let repo: ExtServerRepository;
        try {
          repo = await client.repository(input.projectKey, input.repoSlug);
        } catch (error) {
          const failure = externalFailureOf(error);
          if (failure === undefined) throw error;
          return err(serverError(failure, input, url));
        }
        return create(user, namespace.value, "extserver", {
          name: input.newName ?? repo.name,
          description: repo.description ?? "",
          visibility: repo.public ? "public" : "private",
          defaultBranch: null,
          importSource: `${repo.projectKey}/${repo.slug}`,
          url,
          options: { projectKey: input.projectKey, repoSlug: input.repoSlug },
          credentials: { token: input.token, username: input.username },
        });
      });
    },

    cancel(user, projectId) {
      return attempt(async () => {
        if (!isRecordId(projectId)) return err(errors.recordNotFound());
        const project = await store.projects.findById(projectId);
        const record = project === null ? null : await store.imports.projects.find(project.id);
        // Not a project, or not an import from the forge (reference `imported_from('github').find`).
        if (project === null || record === null || record.source !== "extforge") return err(errors.recordNotFound());
        const visible = await visibleProject(store, user, project, clock.now());
        if (visible.isErr()) return err(errors.notFound());
        if (!(await hasProjectAccess(store, user, project, AccessLevel.Owner, clock.now()))) return err(errors.forbidden("Unauthorized access"));
        const outcome = await store.transaction(async (tx): Promise<{ refused: string } | { updated: ProjectImport }> => {
          const now = clock.now();
          const updated = await tx.imports.projects.update(project.id, ["scheduled", "started"], { status: "canceled", credentials: null }, now);
          if (updated === null) return { refused: (await tx.imports.projects.find(project.id))?.status ?? "finished" };
          // The job stops at its next step (or at once while still queued).
          if (updated.jobId !== null) await tx.jobs.cancel(updated.jobId, now);
          return { updated };
        });
        if ("refused" in outcome) return err(errors.badRequestMessage(IMPORT_MESSAGES.cannotCancel(outcome.refused)));
        const namespace = await store.namespaces.findById(project.namespaceId);
        return ok({ project, namespaceNames: namespace === null ? [] : await namespaceNames(store, namespace), record: outcome.updated });
      });
    },

    status(user, project) {
      return attempt(async () => ((await hasProjectAccess(store, user, project, AccessLevel.Maintainer, clock.now())) ? ok(undefined) : err(errors.forbidden()))).andThen(() =>
        this.statusOf(project),
      );
    },

    statusOf(project) {
      return attempt(async () => {
        const record = await store.imports.projects.find(project.id);
        const job = record?.jobId == null ? null : await store.jobs.findById(record.jobId);
        const namespace = await store.namespaces.findById(project.namespaceId);
        const names = namespace === null ? [] : await namespaceNames(store, namespace);
        let shown = record;
        // A job that ended for good while the import says it runs (its worker died on the last attempt): failed.
        if (record !== null && job !== null && (record.status === "scheduled" || record.status === "started") && (job.state === "failed" || job.state === "cancelled")) {
          shown = { ...record, status: "failed", error: job.lastError ?? "The import job ended without finishing" };
        }
        // Where the import is: its stage among the source's stages, and the records imported so far.
        const stages: readonly string[] = record?.source === "extserver" ? SERVER_STAGES : FORGE_STAGES;
        const stage = record === null ? null : record.status === "finished" ? "done" : (parseCheckpoint(record.checkpoint)?.stage ?? stages[0] ?? "repository");
        const progress = stage === null ? null : { stage, stage_number: Math.max(1, stages.indexOf(stage) + 1), stages: stages.length, items_imported: job?.progressDone ?? 0 };
        return ok(importStatusEntity(project, names, shown, progress));
      });
    },

    entity: (view, warning) => importEntity(view.project, view.namespaceNames, view.record, warning ?? view.warning ?? null),
  };
}

/** The reference's answer for a forge failure while starting (reference §3.1 checks 4 and 7, endpoint rescues). */
function forgeError(failure: ExternalFailure, hostname: string | undefined): ForgekitError {
  switch (failure.reason) {
    case "unauthorized":
      return errors.unauthorized();
    case "forbidden":
      return errors.unprocessable(IMPORT_MESSAGES.tokenNoAccess);
    case "rate_limited":
      return errors.rateLimited(failure.resetAt === undefined ? 60 : (failure.resetAt.getTime() - Date.now()) / 1000);
    case "blocked_url":
      return errors.badRequestMessage(`Invalid URL: ${displayUrl(hostname ?? extForgeApiUrl(undefined))}`);
    case "not_found":
      return errors.unprocessable(IMPORT_MESSAGES.forgeError(failure.detail ?? "Not Found", failure.status ?? 404));
    case "unreachable":
    case "failed":
      return errors.unprocessable(IMPORT_MESSAGES.forgeError(failure.detail ?? failure.message, failure.status));
  }
}

/** The reference's answer for a repository-server failure while starting (reference §4). */
function serverError(failure: ExternalFailure, input: ServerImportInput, url: string): ForgekitError {
  switch (failure.reason) {
    case "not_found":
      return errors.unprocessable(IMPORT_MESSAGES.serverNotFound(input.projectKey, input.repoSlug));
    case "blocked_url":
      return errors.badRequestMessage(`Invalid URL: ${url}`);
    case "rate_limited":
      return errors.rateLimited(failure.resetAt === undefined ? 60 : (failure.resetAt.getTime() - Date.now()) / 1000);
    case "unauthorized":
    case "forbidden":
    case "unreachable":
    case "failed":
      return errors.badRequestMessage(IMPORT_MESSAGES.serverError(failure.detail ?? failure.message));
  }
}
