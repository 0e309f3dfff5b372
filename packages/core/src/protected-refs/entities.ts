/**
 * JSON shapes of protected branches and tags (reference `API::Entities::ProtectedBranch`,
 * `ProtectedTag`, `ProtectedRefAccess`). A user or group row is described by that user's or group's
 * name, a role row by the reference's `human_access_levels`.
 */
import { ACCESS_LEVEL_DESCRIPTIONS, type ProtectedRef, type ProtectedRefAccess, type ProtectedRefAction } from "./types.js";

/** Names of the users and groups access rows refer to. */
export interface AccessNames {
  users: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
}

/** `ProtectedRefAccess`. */
export function accessEntity(row: ProtectedRefAccess, names: AccessNames) {
  const description =
    row.userId !== null ? (names.users.get(row.userId) ?? "")
    : row.groupId !== null ? (names.groups.get(row.groupId) ?? "")
    : ACCESS_LEVEL_DESCRIPTIONS[row.accessLevel];
  return { id: row.id, access_level: row.accessLevel, access_level_description: description, user_id: row.userId, group_id: row.groupId };
}

const rowsOf = (rule: ProtectedRef, action: ProtectedRefAction, names: AccessNames) => rule.accessLevels.filter((row) => row.action === action).map((row) => accessEntity(row, names));

/** `ProtectedBranch`. */
export function protectedBranchEntity(rule: ProtectedRef, names: AccessNames) {
  return {
    id: rule.id,
    name: rule.name,
    push_access_levels: rowsOf(rule, "push", names),
    merge_access_levels: rowsOf(rule, "merge", names),
    unprotect_access_levels: rowsOf(rule, "unprotect", names),
    allow_force_push: rule.allowForcePush,
    code_owner_approval_required: rule.codeOwnerApprovalRequired,
    inherited: false,
  };
}

/** `ProtectedTag`. */
export function protectedTagEntity(rule: ProtectedRef, names: AccessNames) {
  return { name: rule.name, create_access_levels: rowsOf(rule, "create", names) };
}
