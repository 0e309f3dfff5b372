/** Row → domain record conversions (every Date is a fresh object). */
import { featureLevelOf } from "@forgekit/core";
import type { AccessLevel, AccessToken, AccessTokenKind, BotKind, Email, Membership, MemberSource, Namespace, Project, User, UserState, Visibility } from "@forgekit/core";
import type { Selectable } from "kysely";
import type { DialectTraits } from "../dialects/traits.js";
import type { AccessTokensTable, EmailsTable, MembersTable, NamespacesTable, ProjectsTable, UsersTable } from "../schema.js";

export function toUser(row: Selectable<UsersTable>, t: DialectTraits): User {
  return {
    id: Number(row.id),
    username: row.username,
    name: row.name,
    state: row.state as UserState,
    admin: t.fromBool(row.admin),
    bot: row.bot as BotKind | null,
    twoFactorEnabled: t.fromBool(row.two_factor_enabled),
    privateProfile: t.fromBool(row.private_profile),
    avatarUrl: row.avatar_url,
    passwordHash: row.password_hash,
    namespaceId: row.namespace_id === null ? null : Number(row.namespace_id),
    externalId: row.external_id,
    lastActivityOn: row.last_activity_on,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

export function toEmail(row: Selectable<EmailsTable>, t: DialectTraits): Email {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    email: row.email,
    primary: t.fromBool(row.is_primary),
    confirmedAt: row.confirmed_at === null ? null : t.fromDate(row.confirmed_at),
    createdAt: t.fromDate(row.created_at),
  };
}

export function toNamespace(row: Selectable<NamespacesTable>, t: DialectTraits): Namespace {
  return {
    id: Number(row.id),
    kind: row.kind as Namespace["kind"],
    path: row.path,
    name: row.name,
    fullPath: row.full_path,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    ownerId: row.owner_id === null ? null : Number(row.owner_id),
    visibility: row.visibility as Visibility,
    description: row.description,
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
  };
}

export function toProject(row: Selectable<ProjectsTable>, t: DialectTraits): Project {
  return {
    id: Number(row.id),
    namespaceId: Number(row.namespace_id),
    path: row.path,
    name: row.name,
    fullPath: row.full_path,
    description: row.description,
    visibility: row.visibility as Visibility,
    creatorId: row.creator_id === null ? null : Number(row.creator_id),
    repositoryStorage: row.repository_storage,
    repositoryReadOnly: t.fromBool(row.repository_read_only),
    defaultBranch: row.default_branch,
    repositoryEmpty: row.repository_empty === null ? null : t.fromBool(row.repository_empty),
    readmePath: row.readme_path === null ? null : row.readme_path === "" ? false : row.readme_path,
    features: {
      issues: featureLevelOf(Number(row.issues_access_level)),
      mergeRequests: featureLevelOf(Number(row.merge_requests_access_level)),
      repository: featureLevelOf(Number(row.repository_access_level)),
      snippets: featureLevelOf(Number(row.snippets_access_level)),
    },
    mergeChecks: {
      pipelineMustSucceed: t.fromBool(row.only_allow_merge_if_pipeline_succeeds),
      discussionsMustBeResolved: t.fromBool(row.only_allow_merge_if_all_discussions_are_resolved),
    },
    createdAt: t.fromDate(row.created_at),
    updatedAt: t.fromDate(row.updated_at),
    lastActivityAt: t.fromDate(row.last_activity_at),
  };
}

export function toMember(row: Selectable<MembersTable>, t: DialectTraits): Membership {
  return {
    id: Number(row.id),
    sourceType: row.source_type as MemberSource,
    sourceId: Number(row.source_id),
    userId: Number(row.user_id),
    accessLevel: Number(row.access_level) as AccessLevel,
    expiresAt: row.expires_at === null ? null : t.fromDate(row.expires_at),
    createdAt: t.fromDate(row.created_at),
  };
}

export function toToken(row: Selectable<AccessTokensTable>, t: DialectTraits): AccessToken {
  return {
    id: Number(row.id),
    kind: row.kind as AccessTokenKind,
    userId: Number(row.user_id),
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    digest: row.digest,
    expiresAt: row.expires_at === null ? null : t.fromDate(row.expires_at),
    revoked: t.fromBool(row.revoked),
    resourceId: row.resource_id === null ? null : Number(row.resource_id),
    lastUsedAt: row.last_used_at === null ? null : t.fromDate(row.last_used_at),
    createdAt: t.fromDate(row.created_at),
  };
}
