/**
 * What the project entity shows besides the project's row: how many issues are open (one grouped
 * count per rendered page) and — for projects from before the store kept it — whether the
 * repository is empty, read once from the repository storage (`checksum`: 40 zeros for a
 * repository without refs; the git storage reads ref files in process, no git process) and kept.
 */
import type { ForgekitConfig } from "../../config.js";
import type { Project } from "../types.js";

const NO_REFS = "0".repeat(40);

/** The projects with `repositoryEmpty` known, and the open issue count per project id. */
export async function projectFacts(config: ForgekitConfig, projects: readonly Project[]): Promise<{ projects: Project[]; openIssues: Map<number, number> }> {
  const known = await Promise.all(projects.map((project) => (project.repositoryEmpty === null ? learnEmptiness(config, project) : Promise.resolve(project))));
  const openIssues = await config.store.activity.issues.countOpened(known.map((project) => project.id));
  return { projects: known, openIssues };
}

async function learnEmptiness(config: ForgekitConfig, project: Project): Promise<Project> {
  const checksum = await config.repositoryStorage.checksum(project.repositoryStorage, { kind: "project", id: project.id }).catch(() => null);
  // No repository (or an unreadable one) is not recorded: the next request asks again.
  if (checksum === null) return project;
  const repositoryEmpty = checksum === NO_REFS;
  return (await config.store.projects.update(project.id, { repositoryEmpty })) ?? { ...project, repositoryEmpty };
}
