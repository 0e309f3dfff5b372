/**
 * Loads what project and group entities show about namespaces (full names, owners), caching per
 * request so a list renders with one lookup per distinct namespace.
 */
import type { Store } from "../../ports/store.js";
import type { Namespace, User } from "../types.js";

/** Namespace facts an entity needs. */
export interface NamespaceInfo {
  namespace: Namespace;
  /** Names from the root down, joined by " / " (reference `full_name`). */
  fullName: string;
  /** The owner of a user namespace. */
  owner: User | null;
}

/** A per-request namespace loader. */
export interface NamespaceLoader {
  load(id: number): Promise<NamespaceInfo | null>;
}

/** Builds a loader over the store. */
export function namespaceLoader(store: Pick<Store, "namespaces" | "users">): NamespaceLoader {
  const cache = new Map<number, Promise<NamespaceInfo | null>>();
  async function fetch(id: number): Promise<NamespaceInfo | null> {
    // The namespace and its ancestors in one lookup, nearest first.
    const chain = await store.namespaces.chain(id);
    const namespace = chain[0];
    if (namespace === undefined) return null;
    const fullName = chain.reverse().map((n) => n.name).join(" / ");
    const owner = namespace.kind === "user" && namespace.ownerId !== null ? await store.users.findById(namespace.ownerId) : null;
    return { namespace, fullName, owner };
  }
  return {
    load(id) {
      let entry = cache.get(id);
      if (!entry) {
        entry = fetch(id);
        cache.set(id, entry);
      }
      return entry;
    },
  };
}

/** `web_url` of a namespace: the owner's profile for user namespaces, `/groups/<path>` for groups. */
export function namespaceWebUrl(info: NamespaceInfo, baseUrl: string): string {
  if (info.namespace.kind === "user") return `${baseUrl}/${info.owner?.username ?? info.namespace.fullPath}`;
  return `${baseUrl}/groups/${info.namespace.fullPath}`;
}

/** Reference `NamespaceBasic`. */
export function namespaceBasic(info: NamespaceInfo, baseUrl: string) {
  const { namespace } = info;
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId,
    avatar_url: namespace.kind === "user" ? (info.owner?.avatarUrl ?? null) : null,
    web_url: namespaceWebUrl(info, baseUrl),
  };
}
