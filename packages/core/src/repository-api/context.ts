/**
 * What every repository route does first (reference `user_project` + `authorize_read_code!` /
 * `authorize! :push_code`): find the project of `:id` (invisible → 404 Project Not Found), check
 * the caller may read its code (public: everyone who sees it; internal: signed-in users; private:
 * Reporter+) or push to it (Developer+, and not while a storage move holds it read-only), then open
 * its bare repository.
 */
import { tmpdir } from "node:os";
import { err, ok, type Result } from "neverthrow";
import { featureAvailable } from "../access/features.js";
import { hasProjectAccess, visibleProject } from "../access/permissions.js";
import type { ProjectFeature } from "../accounts/project-features.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import type { PushesService } from "../activity/pushes.js";
import type { Identity } from "../auth/identity.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { idOrPath } from "../http/params.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { gitRepo, type GitRepo } from "./git/repo.js";

/** What the repository routes are built from. */
export interface RepositoryApiDeps {
  config: ForgekitConfig;
  pushes: PushesService;
  /** The git executable (default `git`). */
  gitBinary?: string;
}

/** A project the caller may use, with its repository (null when the project has none on disk). */
export interface ProjectRepository {
  project: Project;
  user: User | null;
  repo: GitRepo | null;
}

/** The reference's text for pushes during a storage move (`Gitlab::GitAccess`). */
export const READ_ONLY_MESSAGE = "The repository is temporarily read-only. Please try again later.";

/** The project `:id` names (a numeric id or a full path with `/`), or null. */
export async function findProject(config: ForgekitConfig, id: string): Promise<Project | null> {
  const ref = idOrPath(id);
  if (typeof ref === "number") return config.store.projects.findById(ref);
  return ref !== null && ref.includes("/") ? config.store.projects.findByFullPath(ref) : null;
}

/** Whether the user may read the project's code (reference `download_code`). */
export async function canReadCode(config: ForgekitConfig, user: User | null, project: Project, now: Date): Promise<boolean> {
  if (project.visibility !== "private") return true;
  return hasProjectAccess(config.store, user, project, AccessLevel.Reporter, now);
}

/** Opens the project's repository when its storage has it on a local disk. */
export async function openRepository(deps: Pick<RepositoryApiDeps, "config" | "gitBinary">, project: Project): Promise<GitRepo | null> {
  const storage = deps.config.repositoryStorage;
  const ref = { kind: "project" as const, id: project.id };
  if (storage.localPath === undefined || !(await storage.exists(project.repositoryStorage, ref))) return null;
  return gitRepo(storage.localPath(project.repositoryStorage, ref), { home: tmpdir(), ...(deps.gitBinary === undefined ? {} : { binary: deps.gitBinary }) });
}

/**
 * The project of `:id` for `access`, in the reference's order of checks; `feature` is the project
 * feature the route belongs to (403 when unavailable to the caller: access/features.ts).
 */
export async function projectRepository(
  deps: RepositoryApiDeps,
  identity: Identity,
  id: string,
  access: "read" | "write",
  feature: ProjectFeature = "repository",
): Promise<Result<ProjectRepository, ForgekitError>> {
  const { config } = deps;
  const now = config.clock.now();
  const visible = await visibleProject(config.store, identity.user, await findProject(config, id), now);
  if (visible.isErr()) return err(visible.error);
  const project = visible.value;
  if (!(await featureAvailable(config.store, identity.user, project, feature, now))) return err(errors.forbidden());
  if (!(await canReadCode(config, identity.user, project, now))) return err(errors.forbidden());
  if (access === "write") {
    if (identity.user === null || !(await hasProjectAccess(config.store, identity.user, project, AccessLevel.Developer, now))) return err(errors.forbidden());
    if (project.repositoryReadOnly) return err(errors.forbidden(READ_ONLY_MESSAGE));
  }
  return ok({ project, user: identity.user, repo: await openRepository(deps, project) });
}

/**
 * The project of `:id` for reading by a route outside the repository API (merge requests, statuses): 404 invisible,
 * 403 without code access or without the route's project `feature`.
 */
export function readableProject(config: ForgekitConfig, identity: Identity, id: string | undefined, feature: ProjectFeature = "repository"): Promise<Result<ProjectRepository, ForgekitError>> {
  return projectRepository({ config, pushes: undefined as never }, identity, id ?? "", "read", feature);
}

/** The repository of a {@link ProjectRepository}, or 404 Repository Not Found. */
export function requireRepo(p: ProjectRepository): Result<GitRepo, ForgekitError> {
  return p.repo === null ? err(errors.notFound("Repository")) : ok(p.repo);
}

/** The project's merge request `iid`, or 404 Merge Request Not Found (merge requests, their versions, approvals). */
export async function findMergeRequest(config: ForgekitConfig, projectId: number, iid: number): Promise<Result<MergeRequestRecord, ForgekitError>> {
  const row = await config.store.activity.mergeRequests.findByIid(projectId, iid);
  const mr = row === null ? null : await config.store.reviews.findMergeRequest(row.id);
  return mr === null ? err(errors.notFound("Merge Request")) : ok(mr);
}
