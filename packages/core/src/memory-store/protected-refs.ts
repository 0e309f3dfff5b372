/** In-memory ProtectedRefRepository. */
import type { ProtectedRefRepository } from "../ports/protected-refs-store.js";
import type { ProtectedRef } from "../protected-refs/types.js";
import { copy, type MemoryState, type Runner } from "./state.js";

/**
 * What removing a project, a group or a user takes from the table (the SQL store's cascades): the
 * project's rules, and the access rows naming the group or the user.
 */
export function dropProtectedRefs(state: MemoryState, gone: { projectId?: number; groupId?: number; userId?: number }): void {
  for (const [id, rule] of state.protectedRefs.rows) {
    if (rule.projectId === gone.projectId) {
      state.protectedRefs.rows.delete(id);
      continue;
    }
    state.protectedRefs.rows.set(id, { ...rule, accessLevels: rule.accessLevels.filter((row) => (gone.groupId === undefined || row.groupId !== gone.groupId) && (gone.userId === undefined || row.userId !== gone.userId)) });
  }
}

export function memoryProtectedRefs(run: Runner): ProtectedRefRepository {
  return {
    create: (input, now) =>
      run((state) => {
        if (!state.projects.has(input.projectId)) throw new Error(`project ${input.projectId} does not exist`);
        for (const row of state.protectedRefs.rows.values()) {
          if (row.projectId === input.projectId && row.kind === input.kind && row.name === input.name) return null;
        }
        const table = state.protectedRefs;
        const rule: ProtectedRef = {
          id: ++table.seq,
          projectId: input.projectId,
          kind: input.kind,
          name: input.name,
          allowForcePush: input.allowForcePush ?? false,
          codeOwnerApprovalRequired: input.codeOwnerApprovalRequired ?? false,
          accessLevels: input.accessLevels.map((a) => ({ id: ++table.accessSeq, action: a.action, accessLevel: a.accessLevel, userId: a.userId ?? null, groupId: a.groupId ?? null })),
          createdAt: new Date(now),
        };
        table.rows.set(rule.id, rule);
        return copy(rule);
      }),
    find: (projectId, kind, name) =>
      run((state) => {
        for (const row of state.protectedRefs.rows.values()) if (row.projectId === projectId && row.kind === kind && row.name === name) return copy(row);
        return null;
      }),
    list: (projectId, kind) =>
      run((state) =>
        [...state.protectedRefs.rows.values()]
          .filter((row) => row.projectId === projectId && row.kind === kind)
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    update: (id, patch) =>
      run((state) => {
        const row = state.protectedRefs.rows.edit(id);
        if (row === undefined) return null;
        if (patch.allowForcePush !== undefined) row.allowForcePush = patch.allowForcePush;
        if (patch.codeOwnerApprovalRequired !== undefined) row.codeOwnerApprovalRequired = patch.codeOwnerApprovalRequired;
        return copy(row);
      }),
    remove: (id) => run((state) => state.protectedRefs.rows.delete(id)),
  };
}
