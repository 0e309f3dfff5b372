/** In-memory MemberRepository. */
import type { Membership } from "../accounts/types.js";
import type { MemberRepository } from "../ports/store.js";
import { isActive, namespaceLevel, projectLevel } from "./access.js";
import { copy, type Runner } from "./state.js";
import { nullableCopy, requireUser } from "./users.js";

export function memoryMembers(run: Runner): MemberRepository {
  return {
    add: (input, now) =>
      run((state) => {
        requireUser(state, input.userId);
        for (const member of state.members.values()) {
          if (member.sourceType === input.sourceType && member.sourceId === input.sourceId && member.userId === input.userId) return null;
        }
        const member: Membership = {
          id: ++state.seq.members,
          sourceType: input.sourceType,
          sourceId: input.sourceId,
          userId: input.userId,
          accessLevel: input.accessLevel,
          expiresAt: input.expiresAt == null ? null : new Date(input.expiresAt),
          createdAt: new Date(now),
        };
        state.members.set(member.id, member);
        return copy(member);
      }),
    find: (sourceType, sourceId, userId) =>
      run((state) =>
        nullableCopy(
          [...state.members.values()].find(
            (member) => member.sourceType === sourceType && member.sourceId === sourceId && member.userId === userId,
          ),
        ),
      ),
    updateAccessLevel: (id, level) =>
      run((state) => {
        const member = state.members.edit(id);
        if (member === undefined) return null;
        member.accessLevel = level;
        return copy(member);
      }),
    updateExpiry: (id, expiresAt) =>
      run((state) => {
        const member = state.members.edit(id);
        if (member === undefined) return null;
        member.expiresAt = expiresAt === null ? null : new Date(expiresAt);
        return copy(member);
      }),
    remove: (id) => run((state) => state.members.delete(id)),
    listBySource: (sourceType, sourceId, now) =>
      run((state) =>
        [...state.members.values()]
          .filter((member) => member.sourceType === sourceType && member.sourceId === sourceId && isActive(member.expiresAt, now))
          .sort((a, b) => a.id - b.id)
          .map(copy),
      ),
    namespaceAccessLevel: (userId, namespaceId, now) => run((state) => namespaceLevel(state, userId, namespaceId, now)),
    projectAccessLevel: (userId, projectId, now) =>
      run((state) => {
        const project = state.projects.get(projectId);
        return project === undefined ? 0 : projectLevel(state, userId, project, now);
      }),
    projectAccessLevels: (userId, projectIds, now) =>
      run((state) => {
        const levels = new Map<number, number>();
        for (const id of projectIds) {
          const project = state.projects.get(id);
          const level = project === undefined ? 0 : projectLevel(state, userId, project, now);
          if (level > 0) levels.set(id, level);
        }
        return levels;
      }),
    projectPermissionLevels: (userId, projectId, groupId, now) =>
      run((state) => {
        let project = 0;
        for (const member of state.members.values()) {
          if (member.sourceType === "project" && member.sourceId === projectId && member.userId === userId && isActive(member.expiresAt, now)) project = member.accessLevel;
        }
        return { project, group: groupId === null ? 0 : namespaceLevel(state, userId, groupId, now) };
      }),
  };
}
