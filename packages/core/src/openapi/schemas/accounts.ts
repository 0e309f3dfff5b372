/** Schemas of the accounts entities: users, groups, namespaces, projects, members, tokens, emails. */
import * as z from "zod";
import type { groupEntity } from "../../accounts/entities/groups.js";
import type { memberEntity } from "../../accounts/entities/members.js";
import type { namespaceBasic } from "../../accounts/entities/namespaces.js";
import type { basicProject } from "../../accounts/entities/projects.js";
import type { impersonationTokenEntity, impersonationTokenWithToken, personalAccessTokenWithToken, resourceAccessTokenEntity, resourceAccessTokenWithToken } from "../../accounts/entities/tokens.js";
import type { userActivityEntity, userEntity, userPublic, userWithAdmin } from "../../accounts/entities/users.js";
import { date, type Fits, type Holds, int, timestamp, url, userBasicSchema } from "./common.js";

const visibility = z.enum(["private", "internal", "public"]);

export const userSchema = userBasicSchema
  .extend({
    created_at: timestamp.nullable().optional().meta({ description: "only to viewers allowed to read the profile" }),
    bio: z.string(),
    location: z.string(),
    public_email: z.string().nullable(),
    skype: z.string(),
    linkedin: z.string(),
    twitter: z.string(),
    discord: z.string(),
    website_url: z.string(),
    organization: z.string(),
    job_title: z.string(),
    pronouns: z.string().nullable(),
    bot: z.boolean(),
    work_information: z.string().nullable(),
    followers: int.optional().meta({ description: "only to viewers allowed to read the profile" }),
    following: int.optional().meta({ description: "only to viewers allowed to read the profile" }),
    local_time: z.string().nullable(),
  })
  .meta({ description: "User (reference `User`)" });

export const userSelfSchema = userSchema
  .extend({
    last_sign_in_at: timestamp.nullable().meta({ description: "always null: the host signs users in, forgekit sees no sign-in" }),
    confirmed_at: timestamp.nullable(),
    last_activity_on: date.nullable().meta({ description: "the last UTC day the user used the API or git over HTTP; null before the first" }),
    email: z.string().nullable(),
    theme_id: int,
    color_scheme_id: int,
    projects_limit: int,
    current_sign_in_at: timestamp.nullable().meta({ description: "always null: the host signs users in, forgekit sees no sign-in" }),
    identities: z.array(z.object({ provider: z.string(), extern_uid: z.string() })),
    can_create_group: z.boolean(),
    can_create_project: z.boolean(),
    two_factor_enabled: z.boolean(),
    external: z.boolean(),
    private_profile: z.boolean(),
    commit_email: z.string().nullable(),
  })
  .meta({ description: "The current user (reference `UserPublic`)" });

export const userWithAdminSchema = userSelfSchema
  .extend({
    is_admin: z.boolean(),
    note: z.string().nullable(),
    namespace_id: int.nullable(),
    created_by: userBasicSchema.nullable(),
    email_reset_offered_at: timestamp.nullable(),
  })
  .meta({ description: "A user as administrators see it (reference `UserWithAdmin`)" });

export const userActivitySchema = z
  .object({
    username: z.string(),
    last_activity_on: date.nullable(),
    last_activity_at: date.nullable().meta({ description: "the same day as `last_activity_on` (the reference's older name)" }),
  })
  .meta({ description: "A user's last activity day (reference `UserActivity`)" });

export const groupSchema = z
  .object({
    id: int,
    web_url: url,
    name: z.string(),
    path: z.string(),
    description: z.string(),
    visibility,
    share_with_group_lock: z.boolean(),
    require_two_factor_authentication: z.boolean(),
    two_factor_grace_period: int,
    project_creation_level: z.string(),
    auto_devops_enabled: z.boolean().nullable(),
    subgroup_creation_level: z.string(),
    emails_disabled: z.boolean(),
    emails_enabled: z.boolean(),
    mentions_disabled: z.boolean().nullable(),
    lfs_enabled: z.boolean(),
    archived: z.boolean(),
    default_branch: z.string().nullable(),
    default_branch_protection: int,
    avatar_url: url.nullable(),
    request_access_enabled: z.boolean(),
    full_name: z.string(),
    full_path: z.string(),
    created_at: timestamp.nullable(),
    parent_id: int.nullable(),
    shared_runners_setting: z.string(),
    ldap_cn: z.string().nullable(),
    ldap_access: int.nullable(),
    marked_for_deletion_on: date.nullable(),
  })
  .meta({ description: "Group (reference `Group`)" });

export const namespaceBasicSchema = z
  .object({
    id: int,
    name: z.string(),
    path: z.string(),
    kind: z.enum(["user", "group"]),
    full_path: z.string(),
    parent_id: int.nullable(),
    avatar_url: url.nullable(),
    web_url: url,
  })
  .meta({ description: "Namespace summary (reference `NamespaceBasic`)" });

export const namespaceSchema = namespaceBasicSchema
  .extend({
    members_count_with_descendants: int.optional().meta({ description: "groups the viewer administers only" }),
    plan: z.string().optional().meta({ description: "premium and ultimate tiers, to whom may administer the namespace" }),
  })
  .meta({ description: "Namespace (reference `Namespace`)" });

export const namespaceExistsSchema = z.object({ exists: z.boolean(), suggests: z.array(z.string()) }).meta({ description: "Whether a namespace path is taken, with a free suggestion" });

export const memberSchema = userBasicSchema
  .extend({ access_level: int, created_at: timestamp.nullable(), expires_at: date.nullable(), membership_state: z.string() })
  .meta({ description: "Member (reference `Member`)" });

const accessEntry = z.object({ access_level: int, notification_level: int }).nullable();

export const projectBasicSchema = z
  .object({
    id: int,
    description: z.string().nullable(),
    name: z.string(),
    name_with_namespace: z.string(),
    path: z.string(),
    path_with_namespace: z.string(),
    created_at: timestamp.nullable(),
    default_branch: z.string(),
    tag_list: z.array(z.string()),
    topics: z.array(z.string()),
    ssh_url_to_repo: z.string(),
    http_url_to_repo: url,
    web_url: url,
    readme_url: url.nullable(),
    forks_count: int,
    avatar_url: url.nullable(),
    star_count: int,
    last_activity_at: timestamp.nullable(),
    namespace: namespaceBasicSchema,
  })
  .meta({ description: "Project summary (reference `BasicProjectDetails`, `simple=true`)" });

const featureLevel = z.enum(["disabled", "private", "enabled", "public"]);

export const projectSchema = projectBasicSchema
  .extend({
    _links: z.object({ self: url, issues: url, merge_requests: url, repo_branches: url, labels: url, events: url, members: url, cluster_agents: url }),
    packages_enabled: z.boolean(),
    empty_repo: z.boolean(),
    archived: z.boolean(),
    visibility,
    owner: userBasicSchema.optional().meta({ description: "user namespaces only" }),
    resolve_outdated_diff_discussions: z.boolean(),
    issues_enabled: z.boolean(),
    merge_requests_enabled: z.boolean(),
    wiki_enabled: z.boolean(),
    jobs_enabled: z.boolean(),
    snippets_enabled: z.boolean(),
    container_registry_enabled: z.boolean(),
    service_desk_enabled: z.boolean(),
    service_desk_address: z.string().nullable(),
    can_create_merge_request_in: z.boolean(),
    issues_access_level: featureLevel,
    repository_access_level: featureLevel,
    merge_requests_access_level: featureLevel,
    forking_access_level: featureLevel,
    wiki_access_level: featureLevel,
    builds_access_level: featureLevel,
    snippets_access_level: featureLevel,
    pages_access_level: featureLevel,
    analytics_access_level: featureLevel,
    container_registry_access_level: featureLevel,
    emails_disabled: z.boolean(),
    emails_enabled: z.boolean(),
    shared_runners_enabled: z.boolean(),
    lfs_enabled: z.boolean(),
    creator_id: int.nullable(),
    import_status: z.string(),
    open_issues_count: int,
    ci_default_git_depth: int.nullable(),
    public_jobs: z.boolean(),
    shared_with_groups: z.array(z.object({ group_id: int, group_name: z.string(), group_full_path: z.string(), group_access_level: int })),
    only_allow_merge_if_pipeline_succeeds: z.boolean(),
    request_access_enabled: z.boolean(),
    only_allow_merge_if_all_discussions_are_resolved: z.boolean(),
    remove_source_branch_after_merge: z.boolean(),
    merge_method: z.string(),
    squash_option: z.string(),
    autoclose_referenced_issues: z.boolean(),
    repository_read_only: z.boolean(),
    repository_storage: z.string().optional().meta({ description: "administrators only" }),
    permissions: z.object({ project_access: accessEntry, group_access: accessEntry }).optional().meta({ description: "single-project responses only" }),
  })
  .meta({ description: "Project (reference `Project`; `ProjectWithAccess` adds `permissions` on single reads)" });

export const accessTokenSchema = z
  .object({
    id: int,
    name: z.string(),
    revoked: z.boolean(),
    created_at: timestamp.nullable(),
    description: z.string().nullable(),
    scopes: z.array(z.string()),
    user_id: int,
    last_used_at: timestamp.nullable(),
    active: z.boolean(),
    expires_at: date.nullable(),
  })
  .meta({ description: "Access token (never its secret)" });

export const personalAccessTokenSchema = accessTokenSchema
  .extend({ last_used_ips: z.array(z.string()).meta({ description: "always empty: forgekit does not record them" }) })
  .meta({ description: "Personal access token" });
export const personalAccessTokenWithTokenSchema = accessTokenSchema.extend({ token: z.string() }).meta({ description: "Personal access token with its secret (create and rotate only)" });
export const impersonationTokenSchema = personalAccessTokenSchema.extend({ impersonation: z.boolean() }).meta({ description: "Impersonation token" });
export const impersonationTokenWithTokenSchema = impersonationTokenSchema.extend({ token: z.string() }).meta({ description: "Impersonation token with its secret (create only)" });
export const resourceAccessTokenSchema = accessTokenSchema
  .extend({ access_level: int, resource_type: z.string().meta({ description: "`project` or `group`" }), resource_id: int.nullable() })
  .meta({ description: "Project or group access token" });
export const resourceAccessTokenWithTokenSchema = resourceAccessTokenSchema.extend({ token: z.string() }).meta({ description: "Project or group access token with its secret (create and rotate only)" });

export const emailSchema = z.object({ id: int, email: z.string(), confirmed_at: timestamp.nullable() }).meta({ description: "Email address of a user" });

/** Compile-time: the schemas match their renderers (a mismatch fails `tsc`). */
export type AccountSchemasMatchRenderers = [
  Holds<Fits<typeof userSchema, ReturnType<typeof userEntity>>>,
  Holds<Fits<typeof userSelfSchema, ReturnType<typeof userPublic>>>,
  Holds<Fits<typeof userWithAdminSchema, ReturnType<typeof userWithAdmin>>>,
  Holds<Fits<typeof userActivitySchema, ReturnType<typeof userActivityEntity>>>,
  Holds<Fits<typeof groupSchema, ReturnType<typeof groupEntity>>>,
  Holds<Fits<typeof namespaceBasicSchema, ReturnType<typeof namespaceBasic>>>,
  Holds<Fits<typeof memberSchema, ReturnType<typeof memberEntity>>>,
  Holds<Fits<typeof projectBasicSchema, ReturnType<typeof basicProject>>>,
  Holds<Fits<typeof personalAccessTokenWithTokenSchema, ReturnType<typeof personalAccessTokenWithToken>>>,
  Holds<Fits<typeof impersonationTokenSchema, ReturnType<typeof impersonationTokenEntity>>>,
  Holds<Fits<typeof impersonationTokenWithTokenSchema, ReturnType<typeof impersonationTokenWithToken>>>,
  Holds<Fits<typeof resourceAccessTokenSchema, ReturnType<typeof resourceAccessTokenEntity>>>,
  Holds<Fits<typeof resourceAccessTokenWithTokenSchema, ReturnType<typeof resourceAccessTokenWithToken>>>,
];
