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
import { fromStore, INVALID, Messages, TAKEN } from "./service-kit.js";
import type { Project, Visibility } from "./types.js";
import { checkName, checkPath, pathFromName, visibilityWithin } from "./validation.js";

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
}

/** The reference's message when a project would be more open than its group. */
export const groupVisibilityMessage = (visibility: Visibility, group: Visibility): string => `${visibility} is not allowed in a ${group} group.`;

/** Builds the projects service. */
export function projectsService(config: ForgekitConfig): ProjectsService {
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
      // Every project gets its bare repository, created as the transaction's last step (repositories/provision.ts).
      return messages.result(input).asyncAndThen(() =>
        inTransactionWithRepository(config, async (tx) =>
          (await insertProject(tx, { ...input, path, repositoryStorage: storage }, clock.now())).map((project) => ({
            value: project,
            repository: { storage, ref: { kind: "project" as const, id: project.id }, options: { defaultBranch: project.defaultBranch ?? "main" } },
          })),
        ),
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
  };
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
      defaultBranch: input.defaultBranch ?? null,
    },
    now,
  );
  if (!project) return err(errors.validation({ path: [TAKEN] }));
  if (project.creatorId !== null) {
    // "created" (no target) by the creator, in the same transaction (reference `create_project`).
    const created = await insertEvent(tx, { projectId: project.id, authorId: project.creatorId, action: "created" }, now);
    if (created.isErr()) return err(created.error);
  }
  if (!input.repositoryReadOnly) return ok(project);
  const updated = await tx.projects.update(project.id, { repositoryReadOnly: true });
  return updated ? ok(updated) : err(errors.internal(new Error("project vanished inside its own transaction")));
}
