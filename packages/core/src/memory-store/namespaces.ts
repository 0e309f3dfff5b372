/** In-memory NamespaceRepository (groups and user namespaces). */
import type { Namespace } from "../accounts/types.js";
import type { GroupListFilter, NamespaceRepository } from "../ports/store.js";
import { chainOf, namespaceLevel, namespacesAbove, openTo } from "./access.js";
import { decodeNameCursor, encodeNameCursor } from "../ports/cursors.js";
import { keysetPage, offsetPage } from "./pagination.js";
import { copy, type MemoryState, type Runner } from "./state.js";
import { compareText, contains, fold } from "./text.js";
import { byKey, nullableCopy, requireUser, stripUndefined } from "./users.js";
import { removeGroup } from "./container-removal.js";
import { memoryNamespaceListing } from "./namespace-list.js";

function visibleGroups(state: MemoryState, filter: GroupListFilter): Namespace[] {
  const { viewer, now } = filter;
  const reached = viewer === null ? new Set<number>() : namespacesAbove(state, viewer.userId, now);
  const level = (group: Namespace) => (viewer === null ? 0 : namespaceLevel(state, viewer.userId, group.id, now));
  return [...state.namespaces.values()].filter((group) => {
    if (group.kind !== "group") return false;
    if (filter.topLevelOnly === true && group.parentId !== null) return false;
    if (filter.parentId !== undefined && group.parentId !== filter.parentId) return false;
    if (filter.ancestorId !== undefined && !chainOf(state, group.id).slice(1).some((n) => n.id === filter.ancestorId)) return false;
    if (filter.search !== undefined && !contains(group.name, filter.search) && !contains(group.path, filter.search)) return false;
    if (filter.minAccessLevel !== undefined && level(group) < filter.minAccessLevel) return false;
    if (filter.owned === true && level(group) < 50) return false;
    return openTo(group.visibility, viewer) || reached.has(group.id) || level(group) > 0;
  });
}

function sortGroups(rows: Namespace[], orderBy: "name" | "path" | "id", direction: 1 | -1): Namespace[] {
  const key = (group: Namespace) => (orderBy === "name" ? fold(group.name) : fold(group.path));
  return rows.sort((a, b) => {
    const byKey = orderBy === "id" ? 0 : compareText(key(a), key(b));
    return direction * (byKey !== 0 ? byKey : a.id - b.id);
  });
}

export function memoryNamespaces(run: Runner): NamespaceRepository {
  return {
    ...memoryNamespaceListing(run),
    create: (input, now) =>
      run((state) => {
        let fullPath = input.path;
        if (input.parentId !== null) {
          const parent = state.namespaces.get(input.parentId);
          if (parent === undefined) throw new Error(`parent namespace ${input.parentId} does not exist`);
          fullPath = `${parent.fullPath}/${input.path}`;
        }
        if (input.ownerId !== null) requireUser(state, input.ownerId);
        if (state.unique.namespacePaths.has(fold(fullPath))) return null;
        const namespace: Namespace = {
          id: ++state.seq.namespaces,
          kind: input.kind,
          path: input.path,
          name: input.name,
          fullPath,
          parentId: input.parentId,
          ownerId: input.ownerId,
          visibility: input.visibility,
          description: input.description ?? "",
          createdAt: new Date(now),
          updatedAt: new Date(now),
        };
        state.namespaces.set(namespace.id, namespace);
        state.unique.namespacePaths.set(fold(fullPath), namespace.id);
        return copy(namespace);
      }),
    findById: (id) => run((state) => nullableCopy(state.namespaces.get(id))),
    findByFullPath: (fullPath) =>
      run((state) => byKey(state.namespaces, state.unique.namespacePaths, fold(fullPath))),
    ancestors: (id) => run((state) => chainOf(state, id).slice(1).map(copy)),
    chain: (id) => run((state) => chainOf(state, id).map(copy)),
    removeGroup: (id) => run((state) => removeGroup(state, id)),
    updateGroup: (id, patch) =>
      run((state) => {
        const group = state.namespaces.get(id);
        if (group === undefined || group.kind !== "group") return null;
        const updated: Namespace = { ...group, ...copy(stripUndefined(patch)) };
        state.namespaces.set(id, updated);
        return copy(updated);
      }),
    listGroups: (filter, page) =>
      run((state) => {
        const direction = filter.sort === "desc" ? -1 : 1;
        if (page.kind === "offset") {
          return offsetPage(sortGroups(visibleGroups(state, filter), filter.orderBy ?? "name", direction), page, copy);
        }
        if (filter.orderBy !== undefined && filter.orderBy !== "name") {
          throw new RangeError(`keyset pagination of groups orders by name only, not ${filter.orderBy}`);
        }
        const rows = sortGroups(visibleGroups(state, filter), "name", direction);
        const after = page.after === undefined ? null : decodeNameCursor(page.after);
        const isAfter =
          after === null
            ? null
            : (group: Namespace) => {
                const byName = compareText(fold(group.name), after.name);
                return direction * (byName !== 0 ? byName : group.id - after.id) > 0;
              };
        return keysetPage(rows, page, isAfter, (group) => encodeNameCursor(fold(group.name), group.id), copy);
      }),
  };
}
