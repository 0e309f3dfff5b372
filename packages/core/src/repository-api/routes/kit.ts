/** What the repository routes share: auth modes, the project + repository lookup, in-memory paging. */
import { err, type Result } from "neverthrow";
import type { ForgekitError } from "../../errors.js";
import type { RouteAuth, RouteResult } from "../../http/types.js";
import type { Identity } from "../../auth/identity.js";
import { projectRepository, requireRepo, type ProjectRepository, type RepositoryApiDeps } from "../context.js";
import type { GitRepo } from "../git/repo.js";

/** Reads: anonymous on public projects; `read_repository` tokens too (reference `allow_access_with_scope`). */
export const READ_AUTH: RouteAuth = { mode: "optional", extraScopes: [{ scope: "read_repository", readOnly: true }] };
/** Writes: signed in, `api` scope (read_api and read_repository tokens get 403 insufficient_scope). */
export const WRITE_AUTH: RouteAuth = { mode: "required" };

/** A project with its repository open. */
export type Opened = ProjectRepository & { repo: GitRepo };

/** Looks up `:id` for `access` and opens its repository, then runs `fn`. */
export async function withRepository(deps: RepositoryApiDeps, identity: Identity, id: string | undefined, access: "read" | "write", fn: (o: Opened) => Promise<Result<RouteResult, ForgekitError>>): Promise<Result<RouteResult, ForgekitError>> {
  const found = await projectRepository(deps, identity, id ?? "", access);
  if (found.isErr()) return err(found.error);
  const repo = requireRepo(found.value);
  if (repo.isErr()) return err(repo.error);
  return fn({ ...found.value, repo: repo.value });
}

export { pagedList, pagedListLoaded, pagedListOf } from "../../http/paged-list.js";
