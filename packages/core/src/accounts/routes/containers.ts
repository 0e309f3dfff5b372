/**
 * Finding the project or group a route names, as the caller may see it: `find_project!` /
 * `find_group!` (digits → id, anything else a full path) answer 404 for what the caller cannot see,
 * and an action the caller's role does not allow on a visible one is 403 (reference `authorize!`).
 */
import { err, ok, type Result } from "neverthrow";
import { canReadGroup, canReadProject, groupAccess, projectAccess } from "../../access/permissions.js";
import { errors, type ForgekitError } from "../../errors.js";
import type { Store } from "../../ports/store.js";
import { isGroup } from "../groups.js";
import { AccessLevel, type Group, type Project, type User } from "../types.js";

/** Reference `find_project`: digits → id; a value with `/` → full path; anything else → none. */
export async function findProjectRef(store: Pick<Store, "projects">, ref: number | string): Promise<Project | null> {
  if (typeof ref === "number") return store.projects.findById(ref);
  return ref.includes("/") ? store.projects.findByFullPath(ref) : null;
}

/** Reference `find_group`: digits → id, anything else → full path. */
export async function findGroupRef(store: Pick<Store, "namespaces">, ref: number | string): Promise<Group | null> {
  const namespace = typeof ref === "number" ? await store.namespaces.findById(ref) : await store.namespaces.findByFullPath(ref);
  return isGroup(namespace) ? namespace : null;
}

/** A project the caller sees, with the caller's level in it (administrators: Owner). */
export interface SeenProject {
  project: Project;
  level: number;
}

/** A group the caller sees, with the caller's level in it (administrators: Owner). */
export interface SeenGroup {
  group: Group;
  level: number;
}

/** The project when visible (else 404), and — with `atLeast` — when the caller's level reaches it (else 403). */
export async function seenProject(store: Store, user: User | null, ref: number | string, now: Date, atLeast = 0): Promise<Result<SeenProject, ForgekitError>> {
  const project = await findProjectRef(store, ref);
  if (project === null || !(await canReadProject(store, user, project, now))) return err(errors.notFound("Project"));
  const level = user === null ? 0 : user.admin ? AccessLevel.Owner : await projectAccess(store, user, project, now);
  if (atLeast > 0 && level < atLeast) return err(user === null ? errors.unauthorized() : errors.forbidden());
  return ok({ project, level });
}

/** The group when visible (else 404), and — with `atLeast` — when the caller's level reaches it (else 403). */
export async function seenGroup(store: Store, user: User | null, ref: number | string, now: Date, atLeast = 0): Promise<Result<SeenGroup, ForgekitError>> {
  const group = await findGroupRef(store, ref);
  if (group === null || !(await canReadGroup(store, user, group, now))) return err(errors.notFound("Group"));
  const level = user === null ? 0 : user.admin ? AccessLevel.Owner : await groupAccess(store, user, group, now);
  if (atLeast > 0 && level < atLeast) return err(user === null ? errors.unauthorized() : errors.forbidden());
  return ok({ group, level });
}
