/** JSON shapes of groups (reference `API::Entities::Group`, `GroupDetail`). */
import type { Group } from "../types.js";
import type { NamespaceInfo } from "./namespaces.js";
import { iso } from "./time.js";

/** Reference `Group`. */
export function groupEntity(group: Group, info: NamespaceInfo, baseUrl: string) {
  return {
    id: group.id,
    web_url: `${baseUrl}/groups/${group.fullPath}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: group.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: "developer",
    auto_devops_enabled: null,
    subgroup_creation_level: "maintainer",
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: false,
    archived: false,
    default_branch: null,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: false,
    full_name: info.fullName,
    full_path: group.fullPath,
    created_at: iso(group.createdAt),
    parent_id: group.parentId,
    shared_runners_setting: "disabled_and_unoverridable",
    ldap_cn: null,
    ldap_access: null,
    marked_for_deletion_on: null,
  };
}
