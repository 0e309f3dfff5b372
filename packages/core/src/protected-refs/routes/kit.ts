/** What the protected refs routes share: the project lookup with its permission, names for entities, paging. */
import { err, ok, type Result } from "neverthrow";
import { projectAccess, visibleProject } from "../../access/permissions.js";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import type { ProtectedRef } from "../types.js";
import type { AccessNames } from "../entities.js";

/**
 * The project of `:id` for a caller who may see it (404 otherwise) and manage its protected refs
 * (reference `authorize_admin_project`: Maintainer+ or admin, else 403). The reference reads with the
 * same rule (`read_protected_branch` is granted with `admin_project`).
 */
export async function managedProject(config: ForgekitConfig, user: User | null, id: number | string): Promise<Result<Project, ForgekitError>> {
  const { store } = config;
  const now = config.clock.now();
  const found = typeof id === "number" ? await store.projects.findById(id) : id.includes("/") ? await store.projects.findByFullPath(id) : null;
  const visible = await visibleProject(store, user, found, now);
  if (visible.isErr()) return visible;
  if (user === null) return err(errors.unauthorized());
  if (!user.admin && (await projectAccess(store, user, visible.value, now)) < AccessLevel.Maintainer) return err(errors.forbidden());
  return ok(visible.value);
}

/** The names of the users and groups the rules' access rows name. */
export async function accessNames(config: ForgekitConfig, rules: readonly ProtectedRef[]): Promise<AccessNames> {
  const userIds = new Set<number>();
  const groupIds = new Set<number>();
  for (const rule of rules) {
    for (const row of rule.accessLevels) {
      if (row.userId !== null) userIds.add(row.userId);
      if (row.groupId !== null) groupIds.add(row.groupId);
    }
  }
  const users = new Map((await config.store.users.findByIds([...userIds])).map((u) => [u.id, u.name] as const));
  const groups = new Map<number, string>();
  for (const id of groupIds) {
    const group = await config.store.namespaces.findById(id);
    if (group !== null) groups.set(id, group.name);
  }
  return { users, groups };
}
