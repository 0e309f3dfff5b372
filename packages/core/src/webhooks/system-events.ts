/**
 * Membership, project and user changes reported to hooks in the transaction of the change
 * (reference `SystemHooksService`, `GroupMember#after_commit` → `execute_hooks(:member_hooks)`):
 * a project membership added, changed or removed → `user_add_to_team` / `user_update_for_team` /
 * `user_remove_from_team` to system hooks; a group membership → `user_add_to_group` / … to system
 * hooks and, as `Member Hook`, to the hooks of the group and its ancestors with `member_events`; a
 * project created or deleted → `project_create` / `project_destroy`, a user created →
 * `user_create`, to system hooks. Like the fan-out, this module imports only ports and this
 * capability's own value modules, so the accounts services may call it.
 */
import { AccessLevel, type Membership, type Project, type User } from "../accounts/types.js";
import type { TransactionStore } from "../ports/store.js";
import { queueGroupDeliveries, queueSystemDeliveries } from "./fanout.js";
import { groupMemberPayload, projectMemberPayload, projectSystemPayload, REDACTED_EMAIL, userSystemPayload, type MemberChange } from "./payloads/system.js";

/** `X-Gitlab-Event` of system hook deliveries. */
export const SYSTEM_HOOK_HEADER = "System Hook";
/** `X-Gitlab-Event` of group member events. */
export const MEMBER_HOOK_HEADER = "Member Hook";

/** Queues the hooks of a membership change; `member` is the row after the change (before it, for `destroy`). */
export async function queueMemberHooks(tx: TransactionStore, member: Membership, change: MemberChange, now: Date): Promise<void> {
  const user = await tx.users.findById(member.userId);
  if (user === null) return;
  const updatedAt = change === "update" ? now : member.createdAt;
  if (member.sourceType === "project") {
    const project = await tx.projects.findById(member.sourceId);
    if (project === null) return;
    const payload = projectMemberPayload({ project, member, user, change, updatedAt });
    await queueSystemDeliveries(tx, { trigger: "system_hooks", subjectId: member.id, header: SYSTEM_HOOK_HEADER, payload }, now);
    return;
  }
  const group = await tx.namespaces.findById(member.sourceId);
  if (group === null || group.kind !== "group") return;
  const base = { group, member, user, change, updatedAt };
  const email = (await tx.emails.primaryFor(user.id))?.email ?? "";
  await queueGroupDeliveries(tx, group.id, { trigger: "member_hooks", subjectId: member.id, header: MEMBER_HOOK_HEADER, payload: groupMemberPayload({ ...base, email: REDACTED_EMAIL }) }, now);
  await queueSystemDeliveries(tx, { trigger: "system_hooks", subjectId: member.id, header: SYSTEM_HOOK_HEADER, payload: groupMemberPayload({ ...base, email }) }, now);
}

/** The owner block of a project payload: its group (no e-mail), or the user of a personal project. */
async function projectOwners(tx: TransactionStore, project: Project, now: Date) {
  const namespace = await tx.namespaces.findById(project.namespaceId);
  if (namespace === null) return { owner: null, owners: [] };
  if (namespace.kind === "group") {
    // Reference `group.all_owner_members`: Owners of the group and of its ancestors.
    const owners: { name: string; email: string }[] = [];
    const seen = new Set<number>();
    for (let id: number | null = namespace.id, depth = 0; id !== null && depth < 20; depth++) {
      const group = await tx.namespaces.findById(id);
      if (group === null || group.kind !== "group") break;
      for (const m of await tx.members.listBySource("namespace", group.id, now)) {
        if (m.accessLevel < AccessLevel.Owner || seen.has(m.userId)) continue;
        const user = await tx.users.findById(m.userId);
        if (user === null) continue;
        seen.add(m.userId);
        owners.push({ name: user.name, email: REDACTED_EMAIL });
      }
      id = group.parentId;
    }
    return { owner: { name: namespace.name, email: "" }, owners };
  }
  const user = namespace.ownerId === null ? null : await tx.users.findById(namespace.ownerId);
  const owner = user === null ? null : { name: user.name, email: REDACTED_EMAIL };
  return { owner, owners: owner === null ? [] : [owner] };
}

/** Queues `project_create` or `project_destroy` to system hooks (for a destroy: before the project's rows go). */
export async function queueProjectSystemHook(tx: TransactionStore, project: Project, event: "project_create" | "project_destroy", now: Date): Promise<void> {
  const { owner, owners } = await projectOwners(tx, project, now);
  await queueSystemDeliveries(tx, { trigger: "system_hooks", subjectId: project.id, header: SYSTEM_HOOK_HEADER, payload: projectSystemPayload({ project, event, owner, owners }) }, now);
}

/** Queues `user_create` to system hooks. */
export async function queueUserSystemHook(tx: TransactionStore, user: User, now: Date): Promise<void> {
  const email = (await tx.emails.primaryFor(user.id))?.email ?? "";
  await queueSystemDeliveries(tx, { trigger: "system_hooks", subjectId: user.id, header: SYSTEM_HOOK_HEADER, payload: userSystemPayload(user, email, "user_create") }, now);
}
