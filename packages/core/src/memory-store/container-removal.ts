/** In-memory `projects.remove` and `namespaces.removeGroup`, mirroring what the SQL store deletes (its cascades included). */
import { dropWebHooks } from "./webhooks.js";
import { dropProtectedRefs } from "./protected-refs.js";
import type { RemovedRepository } from "../ports/store.js";
import type { MemoryState } from "./state.js";
import type { StorageMovesTables } from "./storage-moves.js";
import { fold } from "./text.js";
import { removeUser } from "./user-removal.js";
import { dropProjectStatuses } from "./statuses.js";
import { removeLabel } from "./labels.js";
import { dropProjectReleases } from "./releases.js";
import { dropProjectUploads } from "./uploads.js";

/** The storage-move tables when the state has them (added lazily by memory-store/storage-moves.ts). */
function moveTables(state: MemoryState): StorageMovesTables | undefined {
  return (state as MemoryState & { storageMoves?: StorageMovesTables }).storageMoves;
}

function dropMoves(state: MemoryState, kind: "project" | "snippet" | "group", id: number): void {
  const tables = moveTables(state);
  if (tables === undefined) return;
  for (const [key, move] of tables.moves) if (move.kind === kind && move.containerId === id) tables.moves.delete(key);
  tables.locations.delete(`${kind}:${id}`);
}

/** Memberships, notification settings and access-token bots of a project or group. */
function dropSourceRows(state: MemoryState, source: "project" | "namespace", id: number): void {
  for (const [key, member] of state.members) if (member.sourceType === source && member.sourceId === id) state.members.delete(key);
  const settingsType = source === "project" ? "project" : "group";
  for (const [key, row] of state.notificationSettings.rows) {
    if (row.source.type === settingsType && row.source.id === id) state.notificationSettings.rows.delete(key);
  }
  const tokenKind = source === "project" ? "project" : "group";
  const bots = new Set<number>();
  for (const [key, token] of state.tokens) {
    if (token.kind !== tokenKind || token.resourceId !== id) continue;
    if (state.users.get(token.userId)?.bot != null) bots.add(token.userId);
    state.tokens.delete(key);
    state.unique.digests.delete(token.digest);
  }
  for (const bot of bots) removeUser(state, bot);
}

/** Removes a project and what refers to it (see ProjectRepository.remove). */
export function removeProject(state: MemoryState, id: number): RemovedRepository[] | null {
  const project = state.projects.get(id);
  if (project === undefined) return null;
  const removed: RemovedRepository[] = [{ kind: "project", id, storage: project.repositoryStorage }];
  const { issues, mergeRequests, milestones, snippets, notes, events } = state.activity;
  for (const [key, snippet] of snippets) {
    if (snippet.projectId !== id) continue;
    removed.push({ kind: "snippet", id: key, storage: moveTables(state)?.locations.get(`snippet:${key}`)?.storage ?? null });
    dropMoves(state, "snippet", key);
    snippets.delete(key);
  }
  for (const table of [issues, mergeRequests, milestones, notes, events] as Map<number, { projectId: number | null }>[]) {
    for (const [key, row] of table) if (row.projectId === id) table.delete(key);
  }
  const et = state.errorTracking;
  et.settings.delete(id);
  for (const table of [et.keys, et.errors, et.events] as Map<number, { projectId: number }>[]) {
    for (const [key, row] of table) if (row.projectId === id) table.delete(key);
  }
  const imports = state.imports;
  imports.projects.delete(id);
  for (const key of imports.externalIds.keys()) if (key.startsWith(`${id}|`)) imports.externalIds.delete(key);
  for (const label of [...imports.labels.values()]) if (label.projectId === id) removeLabel(state, label.id);
  dropProjectStatuses(state, id);
  dropProjectReleases(state, id);
  dropProjectUploads(state, id);
  dropSourceRows(state, "project", id);
  dropProtectedRefs(state, { projectId: id });
  dropWebHooks(state, { projectId: id });
  dropMoves(state, "project", id);
  state.projects.delete(id);
  state.unique.projectPaths.delete(fold(project.fullPath));
  return removed;
}

/** Removes a group with its subgroups and projects (see NamespaceRepository.removeGroup). */
export function removeGroup(state: MemoryState, id: number): RemovedRepository[] | null {
  const group = state.namespaces.get(id);
  if (group === undefined || group.kind !== "group") return null;
  // The group and its descendants, deepest first.
  const tree = [...state.namespaces.values()]
    .filter((n) => n.id === id || n.fullPath.toLowerCase().startsWith(`${group.fullPath.toLowerCase()}/`))
    .sort((a, b) => b.fullPath.split("/").length - a.fullPath.split("/").length || b.id - a.id);
  const removed: RemovedRepository[] = [];
  for (const namespace of tree) {
    for (const project of [...state.projects.values()]) {
      if (project.namespaceId === namespace.id) removed.push(...(removeProject(state, project.id) ?? []));
    }
  }
  for (const namespace of tree) {
    removed.push({ kind: "group-wiki", id: namespace.id, storage: moveTables(state)?.locations.get(`group:${namespace.id}`)?.storage ?? null });
    dropSourceRows(state, "namespace", namespace.id);
    dropProtectedRefs(state, { groupId: namespace.id });
    dropWebHooks(state, { groupId: namespace.id });
    for (const [key, iteration] of state.iterations.rows) if (iteration.groupId === namespace.id) state.iterations.rows.delete(key);
    for (const label of [...state.imports.labels.values()]) if (label.groupId === namespace.id) removeLabel(state, label.id);
    dropMoves(state, "group", namespace.id);
    state.namespaces.delete(namespace.id);
    state.unique.namespacePaths.delete(fold(namespace.fullPath));
  }
  return removed;
}
