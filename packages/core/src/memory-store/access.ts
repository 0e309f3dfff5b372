/** Access levels and visibility over the in-memory tables (the rules of ports/store.ts). */
import type { Namespace, Project } from "../accounts/types.js";
import { AccessLevel } from "../accounts/types.js";
import type { Viewer } from "../ports/store.js";
import type { MemoryState } from "./state.js";

/** The namespace and its ancestors, the namespace itself first. */
export function chainOf(state: MemoryState, namespaceId: number): Namespace[] {
  const chain: Namespace[] = [];
  let current = state.namespaces.get(namespaceId);
  while (current !== undefined) {
    chain.push(current);
    current = current.parentId === null ? undefined : state.namespaces.get(current.parentId);
  }
  return chain;
}

/** Whether a membership counts at `now` (unexpired: no expiry, or expiry strictly later); no `now` = every membership. */
export function isActive(expiresAt: Date | null, now: Date | undefined): boolean {
  return now === undefined || expiresAt === null || expiresAt.getTime() > now.getTime();
}

/** Highest level over the namespace chain; a user namespace's owner counts as Owner. */
export function namespaceLevel(state: MemoryState, userId: number, namespaceId: number, now: Date | undefined): number {
  const chain = chainOf(state, namespaceId);
  const ids = new Set(chain.map((namespace) => namespace.id));
  let level: number = chain.some((ns) => ns.kind === "user" && ns.ownerId === userId) ? AccessLevel.Owner : 0;
  for (const member of state.members.values()) {
    if (member.userId === userId && member.sourceType === "namespace" && ids.has(member.sourceId) && isActive(member.expiresAt, now)) {
      level = Math.max(level, member.accessLevel);
    }
  }
  return level;
}

/** Highest level from a direct project membership or the project's namespace chain. */
export function projectLevel(state: MemoryState, userId: number, project: Project, now: Date | undefined): number {
  let level = namespaceLevel(state, userId, project.namespaceId, now);
  for (const member of state.members.values()) {
    if (member.userId === userId && member.sourceType === "project" && member.sourceId === project.id && isActive(member.expiresAt, now)) {
      level = Math.max(level, member.accessLevel);
    }
  }
  return level;
}

/** Public for everyone, internal for signed-in users, everything for admins. */
export function openTo(visibility: Namespace["visibility"], viewer: Viewer): boolean {
  if (viewer === null) return visibility === "public";
  return viewer.admin || visibility !== "private";
}

/**
 * Ids of namespaces a user reaches from below: every namespace on the chain of a namespace the user
 * is a member of, or of the namespace holding a project the user is a member of.
 */
export function namespacesAbove(state: MemoryState, userId: number, now: Date | undefined): Set<number> {
  const ids = new Set<number>();
  for (const member of state.members.values()) {
    if (member.userId !== userId || !isActive(member.expiresAt, now)) continue;
    const start = member.sourceType === "namespace" ? member.sourceId : state.projects.get(member.sourceId)?.namespaceId;
    if (start === undefined) continue;
    for (const namespace of chainOf(state, start)) ids.add(namespace.id);
  }
  return ids;
}
