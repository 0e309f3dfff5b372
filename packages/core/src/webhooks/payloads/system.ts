/**
 * Member and system event payloads (reference `Gitlab::HookData::ProjectMemberBuilder`,
 * `GroupMemberBuilder`, `ProjectBuilder`, `UserBuilder`; docs "System hooks" and "Webhook events" →
 * Group member events): flat objects with `event_name` and the record's `created_at` /
 * `updated_at` as `2012-07-21T07:30:54Z`.
 */
import type { Membership, Namespace, Project, User } from "../../accounts/types.js";

/** Reference `Gitlab::Access.human_access` names. */
export const HUMAN_ACCESS: Readonly<Record<number, string>> = { 10: "Guest", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner" };

/** What happened to a membership (reference `:create`, `:update`, `:destroy`). */
export type MemberChange = "create" | "update" | "destroy";

const TEAM_EVENT: Record<MemberChange, string> = { create: "user_add_to_team", update: "user_update_for_team", destroy: "user_remove_from_team" };
const GROUP_EVENT: Record<MemberChange, string> = { create: "user_add_to_group", update: "user_update_for_group", destroy: "user_remove_from_group" };

/** Ruby's `Time#xmlschema`: seconds, `Z`. */
export const xmlschema = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The e-mail shown for a user where the reference shows `webhook_email`: forgekit keeps no public e-mail. */
export const REDACTED_EMAIL = "[REDACTED]";

/** When the membership row was made and last changed (forgekit keeps no `updated_at` for memberships: the change's time for an update). */
function timestamps(member: Membership, updatedAt: Date) {
  return { created_at: xmlschema(member.createdAt), updated_at: xmlschema(updatedAt) };
}

/** The member's fields of a member event; `email` is the real address or `[REDACTED]`. */
function memberUserFields(user: User, email: string) {
  return { user_username: user.username, user_name: user.name, user_email: email, user_id: user.id };
}

/** `user_add_to_team`, `user_update_for_team`, `user_remove_from_team` (project members; system hooks). */
export function projectMemberPayload(input: { project: Project; member: Membership; user: User; change: MemberChange; updatedAt: Date }) {
  const { project, member, user } = input;
  return {
    ...timestamps(member, input.updatedAt),
    project_name: project.name,
    project_path: project.path,
    project_path_with_namespace: project.fullPath,
    project_id: project.id,
    ...memberUserFields(user, REDACTED_EMAIL),
    access_level: HUMAN_ACCESS[member.accessLevel] ?? "Guest",
    project_visibility: project.visibility,
    event_name: TEAM_EVENT[input.change],
  };
}

/**
 * `user_add_to_group`, `user_update_for_group`, `user_remove_from_group` (group members; group
 * hooks with `member_events` as `Member Hook`, system hooks as `System Hook`). `email` is the user's
 * e-mail for system hooks (administrators) and `[REDACTED]` for group hooks.
 */
export function groupMemberPayload(input: { group: Namespace; member: Membership; user: User; change: MemberChange; updatedAt: Date; email: string }) {
  const { group, member, user } = input;
  return {
    ...timestamps(member, input.updatedAt),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    ...memberUserFields(user, input.email),
    group_access: HUMAN_ACCESS[member.accessLevel] ?? "Guest",
    group_plan: null,
    expires_at: member.expiresAt === null ? null : xmlschema(member.expiresAt),
    event_name: GROUP_EVENT[input.change],
  };
}

/** `project_create`, `project_destroy` (system hooks); `owner` is the group, or the user of a personal project. */
export function projectSystemPayload(input: { project: Project; event: "project_create" | "project_destroy"; owner: { name: string; email: string } | null; owners: { name: string; email: string }[] }) {
  const { project } = input;
  return {
    event_name: input.event,
    created_at: xmlschema(project.createdAt),
    updated_at: xmlschema(project.updatedAt),
    name: project.name,
    path: project.path,
    path_with_namespace: project.fullPath,
    project_id: project.id,
    owner_name: input.owner?.name ?? null,
    owner_email: input.owner?.email ?? "",
    owners: input.owners,
    project_visibility: project.visibility,
  };
}

/** `user_create` (system hooks; administrators see the primary e-mail, `email`: "" when none). */
export function userSystemPayload(user: User, email: string, event: "user_create" | "user_destroy") {
  return { created_at: xmlschema(user.createdAt), updated_at: xmlschema(user.updatedAt), event_name: event, name: user.name, email, user_id: user.id, username: user.username };
}
