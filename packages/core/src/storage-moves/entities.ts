/**
 * JSON shapes of moves (reference §7.3): the base `BasicRepositoryStorageMove` (`id, created_at,
 * state, source_storage_name, destination_storage_name, error_message`; `state` as
 * `human_state_name`, so `"cleanup failed"` has a space) plus the container: `project` as
 * `ProjectIdentity`, `snippet` as `BasicSnippet`, `group` as `BasicGroupDetails`.
 */
import type { Snippet } from "../activity/types.js";
import { namespaceLoader, type NamespaceLoader } from "../accounts/entities/namespaces.js";
import { iso } from "../accounts/entities/time.js";
import { userBasic } from "../accounts/entities/users.js";
import type { Group, Project } from "../accounts/types.js";
import type { StorageMove, StorageMoveState } from "../ports/storage-moves-store.js";
import type { Store } from "../ports/store.js";

/** `human_state_name`: the state with `_` as a space. */
export const humanState = (state: StorageMoveState): string => state.replaceAll("_", " ");

/** The base entity. */
export function basicMoveEntity(move: StorageMove) {
  return {
    id: move.id,
    created_at: iso(move.createdAt),
    state: humanState(move.state),
    source_storage_name: move.sourceStorage,
    destination_storage_name: move.destinationStorage,
    error_message: move.errorMessage,
  };
}

/** Reference `ProjectIdentity`. */
export function projectIdentity(project: Project, namespaceFullName: string) {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespaceFullName} / ${project.name}`,
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: iso(project.createdAt),
  };
}

/** Reference `BasicGroupDetails`. */
export function basicGroupDetails(group: Pick<Group, "id" | "fullPath" | "name">, baseUrl: string) {
  return { id: group.id, web_url: `${baseUrl}/groups/${group.fullPath}`, name: group.name };
}

/** Reference `BasicSnippet` (with the repository URLs: every snippet has a repository). */
export function basicSnippet(snippet: Snippet, author: Parameters<typeof userBasic>[0] | null, project: Project | null, baseUrl: string) {
  const host = new URL(baseUrl).hostname;
  const web = project === null ? `${baseUrl}/-/snippets/${snippet.id}` : `${baseUrl}/${project.fullPath}/-/snippets/${snippet.id}`;
  const repo = project === null ? `snippets/${snippet.id}.git` : `${project.fullPath}/snippets/${snippet.id}.git`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: null,
    visibility: snippet.visibility,
    author: author === null ? null : userBasic(author, baseUrl),
    created_at: iso(snippet.createdAt),
    updated_at: iso(snippet.updatedAt),
    project_id: snippet.projectId,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: `git@${host}:${repo}`,
    http_url_to_repo: `${baseUrl}/${repo}`,
  };
}

/** Renders moves of one kind, loading each container once per call. */
export function moveRenderer(store: Store, baseUrl: string) {
  const namespaces: NamespaceLoader = namespaceLoader(store);
  const cache = new Map<string, Promise<Record<string, unknown> | null>>();
  const container = (move: StorageMove): Promise<Record<string, unknown> | null> => {
    const key = `${move.kind}:${move.containerId}`;
    let entry = cache.get(key);
    if (entry === undefined) {
      entry = load(move);
      cache.set(key, entry);
    }
    return entry;
  };
  const load = async (move: StorageMove): Promise<Record<string, unknown> | null> => {
    switch (move.kind) {
      case "project": {
        const project = await store.projects.findById(move.containerId);
        if (project === null) return null;
        const info = await namespaces.load(project.namespaceId);
        return projectIdentity(project, info?.fullName ?? "");
      }
      case "snippet": {
        const snippet = await store.activity.snippets.findById(move.containerId);
        if (snippet === null) return null;
        const [author, project] = await Promise.all([store.users.findById(snippet.authorId), snippet.projectId === null ? null : store.projects.findById(snippet.projectId)]);
        return basicSnippet(snippet, author, project, baseUrl);
      }
      case "group": {
        const group = await store.namespaces.findById(move.containerId);
        return group === null || group.kind !== "group" ? null : basicGroupDetails(group, baseUrl);
      }
    }
  };
  return async (move: StorageMove) => ({ ...basicMoveEntity(move), [move.kind]: await container(move) });
}
