/**
 * The one permissions module every endpoint uses: effective access levels and visibility rules for
 * projects and groups. Invisible resources are answered as 404 (`not_found("Project")` /
 * `not_found("Group")`), never 403, so existence does not leak (reference: `find_project!`).
 *
 * Functions take the store and the clock's `now` (expired memberships never count) and return
 * promises; a rejection is an infrastructure failure.
 */
import { err, ok, type Result } from "neverthrow";
import { AccessLevel, type Group, type Project, type User } from "../accounts/types.js";
import { errors, type ForgekitError } from "../errors.js";
import type { TransactionStore, Viewer } from "../ports/store.js";

/** The part of the store permissions read. */
export type AccessStore = Pick<TransactionStore, "members" | "namespaces" | "projects">;

/** The viewer record list filters take; null = anonymous. */
export function viewerOf(user: User | null): Viewer {
  return user === null ? null : { userId: user.id, admin: user.admin };
}

/** Highest unexpired membership level on the project (direct or via its namespace chain); 0 for none or anonymous. */
export async function projectAccess(store: AccessStore, user: User | null, project: Project, now: Date): Promise<number> {
  if (user === null) return AccessLevel.NoAccess;
  return store.members.projectAccessLevel(user.id, project.id, now);
}

/** Highest unexpired membership level on the group or its ancestors; 0 for none or anonymous. */
export async function groupAccess(store: AccessStore, user: User | null, group: Group, now: Date): Promise<number> {
  if (user === null) return AccessLevel.NoAccess;
  return store.members.namespaceAccessLevel(user.id, group.id, now);
}

/**
 * Project visibility (reference ProjectPolicy): public → everyone, anonymous included; internal →
 * any authenticated user; private → members at any level and administrators.
 */
export async function canReadProject(store: AccessStore, user: User | null, project: Project, now: Date): Promise<boolean> {
  if (project.visibility === "public") return true;
  if (user === null) return false;
  if (project.visibility === "internal" || user.admin) return true;
  return (await projectAccess(store, user, project, now)) > AccessLevel.NoAccess;
}

/**
 * Group visibility: public → everyone; internal → any authenticated user; private → administrators,
 * members of the group or an ancestor, and users the store's group listing shows it to (members of
 * a descendant group or of a project inside it). Deferring the last case to `listGroups` keeps
 * `GET /groups/:id` and `GET /groups` in agreement.
 */
export async function canReadGroup(store: AccessStore, user: User | null, group: Group, now: Date): Promise<boolean> {
  if (group.visibility === "public") return true;
  if (user === null) return false;
  if (group.visibility === "internal" || user.admin) return true;
  if ((await groupAccess(store, user, group, now)) > AccessLevel.NoAccess) return true;
  return listedToViewer(store, user, group, now);
}

async function listedToViewer(store: AccessStore, user: User, group: Group, now: Date): Promise<boolean> {
  const filter = {
    viewer: viewerOf(user),
    now,
    search: group.path,
    orderBy: "id" as const,
    ...(group.parentId === null ? { topLevelOnly: true } : { parentId: group.parentId }),
  };
  for (let page = 1; ; page += 1) {
    const result = await store.namespaces.listGroups(filter, { kind: "offset", page, perPage: 100 });
    if (result.items.some((g) => g.id === group.id)) return true;
    if (!("hasNext" in result) || !result.hasNext) return false;
  }
}

/** Maintainer or above, or an administrator. */
export async function canAdminProject(store: AccessStore, user: User | null, project: Project, now: Date): Promise<boolean> {
  if (user === null) return false;
  return user.admin || (await projectAccess(store, user, project, now)) >= AccessLevel.Maintainer;
}

/** Owner of the group (direct or inherited), or an administrator. */
export async function canAdminGroup(store: AccessStore, user: User | null, group: Group, now: Date): Promise<boolean> {
  if (user === null) return false;
  return user.admin || (await groupAccess(store, user, group, now)) >= AccessLevel.Owner;
}

/** Whether the user has at least `level` on the project (administrators always do). */
export async function hasProjectAccess(store: AccessStore, user: User | null, project: Project, level: number, now: Date): Promise<boolean> {
  if (user === null) return false;
  return user.admin || (await projectAccess(store, user, project, now)) >= level;
}

/** Whether the user has at least `level` on the group (administrators always do). */
export async function hasGroupAccess(store: AccessStore, user: User | null, group: Group, level: number, now: Date): Promise<boolean> {
  if (user === null) return false;
  return user.admin || (await groupAccess(store, user, group, now)) >= level;
}

/** The project when the user may see it, else `not_found("Project")`. */
export async function visibleProject(store: AccessStore, user: User | null, project: Project | null, now: Date): Promise<Result<Project, ForgekitError>> {
  return project !== null && (await canReadProject(store, user, project, now)) ? ok(project) : err(errors.notFound("Project"));
}

/** The group when the user may see it, else `not_found("Group")`. */
export async function visibleGroup(store: AccessStore, user: User | null, group: Group | null, now: Date): Promise<Result<Group, ForgekitError>> {
  return group !== null && (await canReadGroup(store, user, group, now)) ? ok(group) : err(errors.notFound("Group"));
}
