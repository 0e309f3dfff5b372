/** Projects: creation in a user or group namespace, lookups, and the flags later capabilities flip. */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import { isRecordId, recordRef } from "../ids.js";
import { isStorableText } from "../storable.js";
import type { ProjectPatch, TransactionStore } from "../ports/store.js";
import { isBranchName } from "../repositories/names.js";
import { inTransactionWithRepository } from "../repositories/provision.js";
import type { InitialCommit } from "../ports/repository-storage.js";
import { repositoryRemoval, type RepositoryRemoval } from "../repositories/removal.js";
import { fromStore, inTransaction, INVALID, Messages, TAKEN, tooLong } from "./service-kit.js";
import { DEFAULT_BRANCH, DEFAULT_PROJECT_FEATURES, moreOpen, type ProjectFeatures } from "./project-features.js";
import { DEFAULT_MERGE_CHECKS, type ProjectMergeChecks } from "./merge-checks.js";
import { AccessLevel, type Project, type Visibility } from "./types.js";
import { checkName, checkPath, pathFromName, visibilityWithin } from "./validation.js";
import { queueMemberHooks, queueProjectSystemHook } from "../webhooks/system-events.js";

/** Input of {@link ProjectsService.create}. */
export interface CreateProjectInput {
  namespaceId: number;
  name: string;
  /** Default: derived from `name`. */
  path?: string;
  description?: string;
  /** Default `private`; in a group never more open than the group. */
  visibility?: Visibility;
  creatorId?: number | null;
  /** One of the configured `repositoryStorages`; default `defaultRepositoryStorage` (the first). */
  repositoryStorage?: string;
  repositoryReadOnly?: boolean;
  /** The branch the repository's HEAD names (default `main`); must be a valid git branch name. */
  defaultBranch?: string | null;
  /** Commits a `README.md` (the project's name and description) to the default branch of the new repository, authored by the creator. */
  initializeWithReadme?: boolean;
  /** Feature access levels; the others enabled (reference defaults). */
  features?: Partial<ProjectFeatures>;
  /** Merge checks to turn on; the others off (reference defaults). */
  mergeChecks?: Partial<ProjectMergeChecks>;
}

/** Input of {@link ProjectsService.edit}: what a project's settings change (reference `PUT /projects/:id`). */
export interface EditProjectInput {
  name?: string;
  description?: string;
  /** Never more open than the project's group. */
  visibility?: Visibility;
  /** Feature access levels to set; merge requests never more open than the repository. */
  features?: Partial<ProjectFeatures>;
  /** Merge checks to set, the others kept. */
  mergeChecks?: Partial<ProjectMergeChecks>;
}

/** Projects service (host API: `fk.projects`). */
export interface ProjectsService {
  create(input: CreateProjectInput): ResultAsync<Project, ForgekitError>;
  /** `not_found("Project")` when missing. */
  findById(id: number): ResultAsync<Project, ForgekitError>;
  /** Case-insensitive `namespace/path`. */
  findByFullPath(fullPath: string): ResultAsync<Project, ForgekitError>;
  /** All-digit values are ids, values with `/` full paths, anything else not found (reference `find_project`). */
  findByIdOrPath(value: string | number): ResultAsync<Project, ForgekitError>;
  update(id: number, patch: ProjectPatch): ResultAsync<Project, ForgekitError>;
  setReadOnly(id: number, readOnly: boolean): ResultAsync<Project, ForgekitError>;
  /** Validated settings change (name, description, visibility within the group's). */
  edit(id: number, input: EditProjectInput): ResultAsync<Project, ForgekitError>;
  /**
   * Removes the project and everything it holds in one transaction, then deletes its repositories
   * (repositories/removal.ts). `conflict` while its repository is read-only (a storage move runs).
   */
  remove(id: number): ResultAsync<void, ForgekitError>;
}

/** The reference's message when a project would be more open than its group. */
export const groupVisibilityMessage = (visibility: Visibility, group: Visibility): string => `${visibility} is not allowed in a ${group} group.`;

/** Builds the projects service. */
export function projectsService(config: ForgekitConfig, removal: RepositoryRemoval = repositoryRemoval(config)): ProjectsService {
  const { store, clock, repositoryStorages } = config;
  const found = (p: Project | null): Result<Project, ForgekitError> => (p ? ok(p) : err(errors.notFound("Project")));
  // An id or path no store can hold names no project: "not found" without asking the store (ids.ts).
  const findById = (id: number) => (isRecordId(id) ? fromStore(store.projects.findById(id)).andThen(found) : errAsync(errors.notFound("Project")));
  const findByFullPath = (path: string) =>
    isStorableText(path) ? fromStore(store.projects.findByFullPath(path)).andThen(found) : errAsync(errors.notFound("Project"));
  const update = (id: number, patch: ProjectPatch) => fromStore(store.projects.update(id, { ...patch, updatedAt: clock.now() })).andThen(found);

  return {
    create(input) {
      const path = input.path ?? pathFromName(input.name ?? "");
      const messages = new Messages();
      checkName(messages, "name", input.name);
      checkPath(messages, "path", path);
      const storage = input.repositoryStorage ?? config.defaultRepositoryStorage;
      if (!Object.hasOwn(repositoryStorages, storage)) messages.add("repository_storage", "is not included in the list");
      if (input.defaultBranch != null && !isBranchName(input.defaultBranch)) messages.add("default_branch", INVALID);
      checkFeatures(messages, { ...DEFAULT_PROJECT_FEATURES, ...input.features });
      // Every project gets its bare repository, created as the transaction's last step (repositories/provision.ts).
      return messages.result(input).asyncAndThen(() =>
        inTransactionWithRepository(config, async (tx) => {
          const now = clock.now();
          const inserted = await insertProject(tx, { ...input, path, repositoryStorage: storage }, now);
          if (inserted.isErr()) return err(inserted.error);
          const project = inserted.value;
          const defaultBranch = project.defaultBranch ?? DEFAULT_BRANCH;
          const commit = input.initializeWithReadme === true ? await readmeCommit(tx, project, config.baseUrl, now) : undefined;
          return ok({
            value: project,
            repository: { storage, ref: { kind: "project" as const, id: project.id }, options: { defaultBranch, ...(commit === undefined ? {} : { commit }) } },
          });
        }),
      );
    },
    findById,
    findByFullPath,
    findByIdOrPath(value) {
      const ref = recordRef(value);
      if (typeof ref === "number") return findById(ref);
      // A project's full path always has a namespace: text without "/" names none.
      return ref !== null && ref.includes("/") ? findByFullPath(ref) : errAsync(errors.notFound("Project"));
    },
    update,
    setReadOnly: (id, readOnly) => update(id, { repositoryReadOnly: readOnly }),
    edit(id, input) {
      const messages = new Messages();
      if (input.name !== undefined) checkName(messages, "name", input.name);
      if (input.description !== undefined && input.description.length > 2000) messages.add("description", tooLong(2000));
      return messages.result(input).asyncAndThen(() =>
        inTransaction(store, async (tx) => {
          const project = isRecordId(id) ? await tx.projects.findById(id) : null;
          if (project === null) return err(errors.notFound("Project"));
          if (input.visibility !== undefined) {
            const namespace = await tx.namespaces.findById(project.namespaceId);
            if (namespace?.kind === "group" && !visibilityWithin(input.visibility, namespace.visibility)) {
              return err(errors.validation({ visibility_level: [groupVisibilityMessage(input.visibility, namespace.visibility)] }));
            }
          }
          const patch: ProjectPatch = { updatedAt: clock.now() };
          if (input.name !== undefined) patch.name = input.name;
          if (input.description !== undefined) patch.description = input.description;
          if (input.visibility !== undefined) patch.visibility = input.visibility;
          if (input.features !== undefined) {
            const features = new Messages();
            checkFeatures(features, { ...project.features, ...input.features });
            const checked = features.result(input);
            if (checked.isErr()) return err(checked.error);
            patch.features = input.features;
          }
          if (input.mergeChecks !== undefined) patch.mergeChecks = input.mergeChecks;
          const updated = await tx.projects.update(project.id, patch);
          return updated === null ? err(errors.notFound("Project")) : ok(updated);
        }),
      );
    },
    remove: (id) =>
      findById(id)
        .andThen((project) =>
          inTransaction(store, async (tx) => {
            const current = await tx.projects.findById(project.id);
            if (current?.repositoryReadOnly === true) return err(errors.conflict("The project's repository is read-only while a storage move runs; try again when it finished"));
            if (current !== null) await queueProjectSystemHook(tx, current, "project_destroy", clock.now());
            const removed = await tx.projects.remove(project.id);
            return removed === null ? err(errors.notFound("Project")) : ok(removed);
          }),
        )
        .andThen((removed) => fromStore(removal.removeAll(removed))),
  };
}

/**
 * Reference `ProjectFeature#repository_children_level`: merge requests are never more open than
 * the repository they merge into.
 */
function checkFeatures(messages: Messages, features: ProjectFeatures): void {
  if (moreOpen(features.mergeRequests, features.repository)) messages.add("merge_requests_access_level", "cannot have higher visibility level than repository access level");
}

/** The README an `initialize_with_readme` project starts with, committed by its creator (or, without one, by the instance). */
async function readmeCommit(tx: TransactionStore, project: Project, baseUrl: string, now: Date): Promise<InitialCommit> {
  const creator = project.creatorId === null ? null : await tx.users.findById(project.creatorId);
  const host = new URL(baseUrl).hostname;
  const author = creator === null ? { name: "forgekit", email: `noreply@${host}` } : { name: creator.name, email: `${creator.username}@users.noreply.${host}` };
  const content = `# ${project.name}\n${project.description === "" ? "" : `\n${project.description}\n`}`;
  return { files: [{ path: "README.md", content }], message: "Initial commit", author, date: now };
}

/** Inserts a project row (and its "created" event) in `tx`; the caller creates its repository (repositories/provision.ts). */
export async function insertProject(
  tx: TransactionStore,
  input: CreateProjectInput & { path: string; repositoryStorage: string },
  now: Date,
): Promise<Result<Project, ForgekitError>> {
  const visibility = input.visibility ?? "private";
  const namespace = await tx.namespaces.findById(input.namespaceId);
  if (!namespace) return err(errors.notFound("Namespace"));
  if (namespace.kind === "group" && !visibilityWithin(visibility, namespace.visibility)) {
    return err(errors.validation({ visibility_level: [groupVisibilityMessage(visibility, namespace.visibility)] }));
  }
  const project = await tx.projects.create(
    {
      namespaceId: namespace.id,
      path: input.path,
      name: input.name,
      description: input.description ?? "",
      visibility,
      creatorId: input.creatorId ?? null,
      repositoryStorage: input.repositoryStorage,
      // A README commit makes the repository non-empty on its default branch (`main` unless named).
      defaultBranch: input.defaultBranch ?? (input.initializeWithReadme === true ? DEFAULT_BRANCH : null),
      repositoryEmpty: input.initializeWithReadme !== true,
      readmePath: input.initializeWithReadme === true ? "README.md" : false,
      features: { ...DEFAULT_PROJECT_FEATURES, ...input.features },
      mergeChecks: { ...DEFAULT_MERGE_CHECKS, ...input.mergeChecks },
    },
    now,
  );
  if (!project) return err(errors.validation({ path: [TAKEN] }));
  // Reference `Projects::CreateService#add_members`: a personal project's namespace owner is its Owner member.
  await queueProjectSystemHook(tx, project, "project_create", now);
  if (namespace.kind === "user" && namespace.ownerId !== null) {
    const owner = await tx.members.add({ sourceType: "project", sourceId: project.id, userId: namespace.ownerId, accessLevel: AccessLevel.Owner }, now);
    if (owner !== null) await queueMemberHooks(tx, owner, "create", now);
  }
  if (project.creatorId !== null) {
    // "created" (no target) by the creator, in the same transaction (reference `create_project`).
    const created = await insertEvent(tx, { projectId: project.id, authorId: project.creatorId, action: "created" }, now);
    if (created.isErr()) return err(created.error);
  }
  if (!input.repositoryReadOnly) return ok(project);
  const updated = await tx.projects.update(project.id, { repositoryReadOnly: true });
  return updated ? ok(updated) : err(errors.internal(new Error("project vanished inside its own transaction")));
}
