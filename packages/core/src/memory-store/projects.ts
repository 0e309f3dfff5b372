/** In-memory ProjectRepository. */
import type { Project } from "../accounts/types.js";
import { DEFAULT_PROJECT_FEATURES } from "../accounts/project-features.js";
import { DEFAULT_MERGE_CHECKS } from "../accounts/merge-checks.js";
import type { ProjectListFilter, ProjectRepository } from "../ports/store.js";
import { chainOf, openTo, projectLevel } from "./access.js";
import { removeProject } from "./container-removal.js";
import { decodeIdCursor } from "../ports/cursors.js";
import { keysetPage, offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { compareText, contains, fold } from "./text.js";
import { byKey, nullableCopy, stripUndefined } from "./users.js";

type ProjectOrder = NonNullable<ProjectListFilter["orderBy"]>;

function visibleProjects(state: MemoryState, filter: ProjectListFilter): Project[] {
  const { viewer, now } = filter;
  const level = (project: Project) => (viewer === null ? 0 : projectLevel(state, viewer.userId, project, now));
  return [...state.projects.values()].filter((project) => {
    if (filter.visibility !== undefined && project.visibility !== filter.visibility) return false;
    if (filter.namespaceId !== undefined && project.namespaceId !== filter.namespaceId) {
      if (filter.includeSubgroups !== true || !chainOf(state, project.namespaceId).some((n) => n.id === filter.namespaceId)) return false;
    }
    if (filter.repositoryStorage !== undefined && project.repositoryStorage !== filter.repositoryStorage) return false;
    if (filter.search !== undefined && !contains(project.name, filter.search) && !contains(project.path, filter.search)) return false;
    if (filter.owned === true) {
      const namespace = state.namespaces.get(project.namespaceId);
      if (viewer === null || namespace?.kind !== "user" || namespace.ownerId !== viewer.userId) return false;
    }
    if (filter.membership === true && level(project) <= 0) return false;
    if (filter.minAccessLevel !== undefined && level(project) < filter.minAccessLevel) return false;
    return openTo(project.visibility, viewer) || level(project) > 0;
  });
}

function orderKey(project: Project, orderBy: ProjectOrder): string | number {
  switch (orderBy) {
    case "id":
      return project.id;
    case "name":
      return fold(project.name);
    case "path":
      return fold(project.path);
    case "created_at":
      return project.createdAt.getTime();
    case "updated_at":
      return project.updatedAt.getTime();
    case "last_activity_at":
      return project.lastActivityAt.getTime();
  }
}

function sortProjects(rows: Project[], orderBy: ProjectOrder, direction: 1 | -1): Project[] {
  return rows.sort((a, b) => {
    const x = orderKey(a, orderBy);
    const y = orderKey(b, orderBy);
    const byKey = typeof x === "string" && typeof y === "string" ? compareText(x, y) : Math.sign(Number(x) - Number(y));
    return direction * (byKey !== 0 ? byKey : a.id - b.id);
  });
}

export function memoryProjects(run: Runner): ProjectRepository {
  return {
    create: (input, now) =>
      run((state) => {
        const namespace = state.namespaces.get(input.namespaceId);
        if (namespace === undefined) throw new Error(`namespace ${input.namespaceId} does not exist`);
        const fullPath = `${namespace.fullPath}/${input.path}`;
        if (state.unique.projectPaths.has(fold(fullPath))) return null;
        const project: Project = {
          id: ++state.seq.projects,
          namespaceId: input.namespaceId,
          path: input.path,
          name: input.name,
          fullPath,
          description: input.description ?? "",
          visibility: input.visibility,
          creatorId: input.creatorId,
          repositoryStorage: input.repositoryStorage ?? "default",
          repositoryReadOnly: false,
          defaultBranch: input.defaultBranch ?? null,
          repositoryEmpty: input.repositoryEmpty ?? true,
          readmePath: input.readmePath === undefined ? false : input.readmePath,
          features: { ...(input.features ?? DEFAULT_PROJECT_FEATURES) },
          mergeChecks: { ...(input.mergeChecks ?? DEFAULT_MERGE_CHECKS) },
          createdAt: new Date(now),
          updatedAt: new Date(now),
          lastActivityAt: new Date(now),
        };
        state.projects.set(project.id, project);
        state.unique.projectPaths.set(fold(fullPath), project.id);
        return copy(project);
      }),
    findById: (id) => run((state) => nullableCopy(state.projects.get(id))),
    findByFullPath: (fullPath) =>
      run((state) => byKey(state.projects, state.unique.projectPaths, fold(fullPath))),
    update: (id, patch) =>
      run((state) => {
        const project = state.projects.get(id);
        if (project === undefined) return null;
        const { features, mergeChecks, ...rest } = patch;
        const updated: Project = {
          ...project,
          ...copy(stripUndefined(rest)),
          features: { ...project.features, ...stripUndefined(features ?? {}) },
          mergeChecks: { ...project.mergeChecks, ...stripUndefined(mergeChecks ?? {}) },
        };
        state.projects.set(id, updated);
        return copy(updated);
      }),
    remove: (id) => run((state) => removeProject(state, id)),
    list: (filter, page) =>
      run((state) => {
        const direction = filter.sort === "asc" ? 1 : -1;
        if (page.kind === "offset") {
          return offsetPage(sortProjects(visibleProjects(state, filter), filter.orderBy ?? "created_at", direction), page, copy);
        }
        if (filter.orderBy !== undefined && filter.orderBy !== "id") {
          throw new RangeError(`keyset pagination of projects orders by id only, not ${filter.orderBy}`);
        }
        const after = page.after === undefined ? null : decodeIdCursor(page.after);
        const rows = sortProjects(visibleProjects(state, filter), "id", direction);
        const isAfter = after === null ? null : (project: Project) => direction * (project.id - after) > 0;
        return keysetPage(rows, page, isAfter, (project) => String(project.id), copy);
      }),
  };
}
