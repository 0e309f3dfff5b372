/**
 * What the project entity shows besides the project's row, read for a whole rendered page at once
 * (one grouped query each, never one per row): how many issues are open, each project's import
 * status, the viewer's access level (`can_create_merge_request_in`), and — for projects from
 * before the store kept it — whether the repository is empty, read once from the repository
 * storage (`checksum`: 40 zeros for a repository without refs; the git storage reads ref files in
 * process, no git process) and kept; and the default branch's README when not known (new projects
 * know it; a branch push forgets it): one `ls-tree` of the root, kept until the next push.
 */
import { tmpdir } from "node:os";
import type { ForgekitConfig } from "../../config.js";
import { listTree, resolveCommit } from "../../repository-api/git/reads.js";
import { gitRepo } from "../../repository-api/git/repo.js";
import { DEFAULT_BRANCH } from "../project-features.js";
import type { ImportStatus } from "../../ports/imports-store.js";
import { AccessLevel, type Project, type User } from "../types.js";

const NO_REFS = "0".repeat(40);

/** The facts of a page of projects; {@link factsOf} picks one project's for its `ProjectView`. */
export interface ProjectFacts {
  projects: Project[];
  openIssues: Map<number, number>;
  imports: Map<number, ImportStatus>;
  /** The viewer's level per project (administrators: Owner everywhere); absent = none. */
  access: Map<number, number>;
}

/**
 * The projects with `repositoryEmpty` and `readmePath` known, and the facts of each (`viewer`: who
 * is looking; `knownAccess`: the viewer's levels when the caller has read them already).
 */
export async function projectFacts(config: ForgekitConfig, projects: readonly Project[], viewer: User | null = null, knownAccess?: ReadonlyMap<number, number>): Promise<ProjectFacts> {
  const known = await Promise.all(projects.map((project) => learnFacts(config, project)));
  const ids = known.map((project) => project.id);
  const [openIssues, imports, access] = await Promise.all([
    config.store.activity.issues.countOpened(ids),
    config.store.imports.projects.statuses(ids),
    knownAccess === undefined ? viewerLevels(config, viewer, ids) : Promise.resolve(new Map(knownAccess)),
  ]);
  return { projects: known, openIssues, imports, access };
}

/** One project's facts as `ProjectView` fields. */
export function factsOf(facts: ProjectFacts, project: Project): { openIssues: number; importStatus: ImportStatus | "none"; access: number } {
  return { openIssues: facts.openIssues.get(project.id) ?? 0, importStatus: facts.imports.get(project.id) ?? "none", access: facts.access.get(project.id) ?? AccessLevel.NoAccess };
}

async function viewerLevels(config: ForgekitConfig, viewer: User | null, ids: number[]): Promise<Map<number, number>> {
  if (viewer === null) return new Map();
  if (viewer.admin) return new Map(ids.map((id) => [id, AccessLevel.Owner]));
  return config.store.members.projectAccessLevels(viewer.id, ids, config.clock.now());
}

/** The project with `repositoryEmpty` and `readmePath` known (read from the repository and kept when they were not). */
async function learnFacts(config: ForgekitConfig, project: Project): Promise<Project> {
  const withEmptiness = project.repositoryEmpty === null ? await learnEmptiness(config, project) : project;
  return withEmptiness.readmePath === null ? learnReadme(config, withEmptiness) : withEmptiness;
}

/**
 * Reference `Tree#readme_path`: among the root files whose name starts with `readme` (any case), the
 * first one rendered as markup (`.md`, `.rst`, `.adoc`, …), else the first plain one (no extension
 * or `.txt`); `false` when there is none.
 */
export function pickReadme(names: readonly string[]): string | false {
  const readmes = names.filter((name) => /^readme[^/]*$/i.test(name));
  const markup = readmes.find((name) => /\.(md|markdown|mdown|mkd|mkdn|rst|adoc|ad|asciidoc|org|textile|rdoc|creole|wiki|mediawiki)$/i.test(name));
  const plain = readmes.find((name) => !name.includes(".") || /\.txt$/i.test(name));
  return markup ?? plain ?? false;
}

async function learnReadme(config: ForgekitConfig, project: Project): Promise<Project> {
  const storage = config.repositoryStorage;
  const ref = { kind: "project" as const, id: project.id };
  let readmePath: string | false;
  if (project.repositoryEmpty === true) readmePath = false;
  else {
    try {
      if (storage.localPath === undefined || !(await storage.exists(project.repositoryStorage, ref))) return project;
      const repo = gitRepo(storage.localPath(project.repositoryStorage, ref), { home: tmpdir() });
      const head = await resolveCommit(repo, project.defaultBranch ?? DEFAULT_BRANCH);
      const root = head === null ? [] : ((await listTree(repo, head, "", false)) ?? []);
      readmePath = pickReadme(root.filter((entry) => entry.type === "blob").map((entry) => entry.path));
    } catch {
      // An unreadable repository is not recorded: the next request asks again.
      return project;
    }
  }
  return (await config.store.projects.update(project.id, { readmePath })) ?? { ...project, readmePath };
}

async function learnEmptiness(config: ForgekitConfig, project: Project): Promise<Project> {
  const checksum = await config.repositoryStorage.checksum(project.repositoryStorage, { kind: "project", id: project.id }).catch(() => null);
  // No repository (or an unreadable one) is not recorded: the next request asks again.
  if (checksum === null) return project;
  const repositoryEmpty = checksum === NO_REFS;
  return (await config.store.projects.update(project.id, { repositoryEmpty })) ?? { ...project, repositoryEmpty };
}
