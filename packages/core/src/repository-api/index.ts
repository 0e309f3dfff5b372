/**
 * Repository reads and writes over REST (issue 11, "Repository reads"): tree, blobs, branches,
 * tags, commits (with the `actions` write API), files and compare, on the project's bare
 * repository through the git CLI.
 */
import { tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { RepositoryApiDeps } from "./context.js";
import { archiveRoutes } from "./routes/archive.js";
import { commitRoutes } from "./routes/commits.js";
import { fileRoutes } from "./routes/files.js";
import { readRoutes } from "./routes/reads.js";
import { refRoutes } from "./routes/refs.js";

export type { RepositoryApiDeps } from "./context.js";
// What releases build on: the project lookup, tag creation and the commit entity.
export { canReadCode, findProject, openRepository, projectRepository, READ_ONLY_MESSAGE, type ProjectRepository } from "./context.js";
export { createTag } from "./service.js";
export { commitEntity } from "./entities.js";
export { listCommits, listRefs, readCommit, type CommitInfo, type RefInfo } from "./git/reads.js";
export type { GitRepo } from "./git/repo.js";

/** The repository route table. */
export function repositoryApiRoutes(deps: RepositoryApiDeps): AnyRoute[] {
  return tagRoutes("Repository", [...readRoutes(deps), ...refRoutes(deps), ...commitRoutes(deps), ...fileRoutes(deps), ...archiveRoutes(deps)]);
}
