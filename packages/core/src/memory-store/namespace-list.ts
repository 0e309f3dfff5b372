/** In-memory {@link NamespaceListing}: the `GET /namespaces` list and hierarchy member counts. */
import type { Namespace } from "../accounts/types.js";
import type { NamespaceListing } from "../ports/namespace-list.js";
import { chainOf, isActive } from "./access.js";
import { offsetPage } from "./pagination.js";
import { copy, type Runner } from "./state.js";
import { contains } from "./text.js";

/** The namespace listing over the memory state. */
export function memoryNamespaceListing(run: Runner): NamespaceListing {
  return {
    listNamespaces: (filter, page) =>
      run((state) => {
        const { memberId, now } = filter;
        let groups: Set<number> | null = null;
        if (memberId !== undefined) {
          groups = new Set();
          for (const m of state.members.values()) {
            if (m.sourceType !== "namespace" || m.userId !== memberId || !isActive(m.expiresAt, now)) continue;
            if (filter.ownedOnly === true && m.accessLevel < 50) continue;
            groups.add(m.sourceId);
          }
        }
        const rows = [...state.namespaces.values()].filter((ns: Namespace) => {
          if (groups !== null && !(ns.kind === "user" ? ns.ownerId === memberId : groups.has(ns.id))) return false;
          if (filter.topLevelOnly === true && ns.parentId !== null) return false;
          if (filter.search !== undefined && !contains(ns.name, filter.search) && !contains(ns.path, filter.search)) return false;
          return true;
        });
        return offsetPage(rows.sort((a, b) => a.id - b.id), page, copy);
      }),
    membersWithDescendants: (groupIds, now) =>
      run((state) => {
        const users = new Map<number, Set<number>>();
        for (const id of groupIds) if (state.namespaces.get(id)?.kind === "group") users.set(id, new Set());
        for (const m of state.members.values()) {
          if (m.sourceType !== "namespace" || !isActive(m.expiresAt, now)) continue;
          for (const ns of chainOf(state, m.sourceId)) users.get(ns.id)?.add(m.userId);
        }
        return new Map([...users].map(([id, set]) => [id, set.size]));
      }),
  };
}
