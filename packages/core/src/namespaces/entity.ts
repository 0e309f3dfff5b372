/**
 * The namespace entity (reference `API::Entities::Namespace` over `NamespaceBasic`, with the EE
 * `plan`): every viewer gets the basic fields; `members_count_with_descendants` only for groups the
 * viewer may administer (Owner or administrator, reference `:admin_group`), and `plan` — the
 * instance's licensed tier, there being no per-namespace subscription here — only on the premium and
 * ultimate tiers and only to whom may administer the namespace (reference `:admin_namespace`).
 */
import { namespaceBasic } from "../accounts/entities/namespaces.js";
import { AccessLevel, type Namespace, type User } from "../accounts/types.js";
import { tierAllows } from "../access/tier.js";
import type { ForgekitConfig } from "../config.js";

/** Renders a page of namespaces for `viewer` with one lookup for owners and one for member counts. */
export async function renderNamespaces(config: ForgekitConfig, viewer: User, namespaces: readonly Namespace[]): Promise<Record<string, unknown>[]> {
  const { store, clock, baseUrl } = config;
  const now = clock.now();
  const ownerIds = [...new Set(namespaces.flatMap((ns) => (ns.kind === "user" && ns.ownerId !== null ? [ns.ownerId] : [])))];
  const owners = new Map((ownerIds.length === 0 ? [] : await store.users.findByIds(ownerIds)).map((user) => [user.id, user]));
  const administered = new Set<number>();
  for (const ns of namespaces) {
    if (await canAdminister(config, viewer, ns, now)) administered.add(ns.id);
  }
  const groups = namespaces.filter((ns) => ns.kind === "group" && administered.has(ns.id)).map((ns) => ns.id);
  const counts = groups.length === 0 ? new Map<number, number>() : await store.namespaces.membersWithDescendants(groups, now);
  const plan = tierAllows(config.tier, "premium");
  return namespaces.map((namespace) => {
    const owner = namespace.ownerId === null ? null : (owners.get(namespace.ownerId) ?? null);
    const body: Record<string, unknown> = namespaceBasic({ namespace, fullName: namespace.name, owner }, baseUrl);
    if (namespace.kind === "group" && administered.has(namespace.id)) body["members_count_with_descendants"] = counts.get(namespace.id) ?? 0;
    if (plan && administered.has(namespace.id)) body["plan"] = config.tier;
    return body;
  });
}

/** Reference `:admin_namespace` / `:admin_group`: administrators, the owner of a user namespace, a group's Owners. */
async function canAdminister(config: ForgekitConfig, viewer: User, namespace: Namespace, now: Date): Promise<boolean> {
  if (viewer.admin) return true;
  if (namespace.kind === "user") return namespace.ownerId === viewer.id;
  return (await config.store.members.namespaceAccessLevel(viewer.id, namespace.id, now)) >= AccessLevel.Owner;
}
