/**
 * What every release route does first (reference `authorize_read_releases!` /
 * `authorize_create_release!`): find the project of `:id` (invisible → 404 Project Not Found);
 * reading needs only to see the project (guests of private projects too — they get no code fields),
 * writing needs Developer+ and a repository that is not read-only for a storage move.
 */
import { err, ok, type Result } from "neverthrow";
import { hasProjectAccess, visibleProject } from "../access/permissions.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import type { Identity } from "../auth/identity.js";
import { errors, type ForgekitError } from "../errors.js";
import { canReadCode, findProject, openRepository, READ_ONLY_MESSAGE, type GitRepo, type RepositoryApiDeps } from "../repository-api/index.js";

/** What the release routes are built from (the repository routes' dependencies). */
export type ReleasesDeps = RepositoryApiDeps;

/** A project the caller may use for releases. */
export interface ReleaseProject {
  project: Project;
  user: User | null;
  /** The project's repository, or null when it has none here. */
  repo: GitRepo | null;
  /** Whether the caller may read the code (code fields of the entity). */
  readCode: boolean;
  /** Whether the caller may create, edit and delete releases (Developer+). */
  canEdit: boolean;
}

/** The project of `:id` for `access`, in the reference's order of checks. */
export async function releaseProject(deps: ReleasesDeps, identity: Identity, id: string | undefined, access: "read" | "write"): Promise<Result<ReleaseProject, ForgekitError>> {
  const { store, clock } = deps.config;
  const now = clock.now();
  const visible = await visibleProject(store, identity.user, await findProject(deps.config, id ?? ""), now);
  if (visible.isErr()) return err(visible.error);
  const project = visible.value;
  const canEdit = await hasProjectAccess(store, identity.user, project, AccessLevel.Developer, now);
  if (access === "write") {
    if (!canEdit) return err(errors.forbidden());
    if (project.repositoryReadOnly) return err(errors.forbidden(READ_ONLY_MESSAGE));
  }
  const readCode = await canReadCode(deps.config, identity.user, project, now);
  return ok({ project, user: identity.user, repo: await openRepository(deps, project), readCode, canEdit });
}
