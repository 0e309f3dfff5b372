/** Domain records of the accounts capability, as the store holds them (times are `Date`, UTC). */
import type { ProjectMergeChecks } from "./merge-checks.js";
import type { ProjectFeatures } from "./project-features.js";

/** Who can see a project, group or snippet: its members only, any signed-in user, or everyone. */
export type Visibility = "private" | "internal" | "public";
/**
 * Whether a user may sign in and use the API (`active`) or has been blocked or deactivated by an
 * administrator.
 */
export type UserState = "active" | "blocked" | "deactivated";

/** Access levels (reference `Gitlab::Access`). */
export const AccessLevel = {
  NoAccess: 0,
  Guest: 10,
  Reporter: 20,
  Developer: 30,
  Maintainer: 40,
  Owner: 50,
} as const;
export type AccessLevel = (typeof AccessLevel)[keyof typeof AccessLevel];

/** A bot user backs every project and group access token. */
export type BotKind = "project_bot" | "group_bot";

/** A user account as the store holds it (humans and the bots behind project and group access tokens). */
export interface User {
  id: number;
  username: string;
  name: string;
  state: UserState;
  admin: boolean;
  /** Set for project/group access-token bots; such users own no namespace of their own. */
  bot: BotKind | null;
  twoFactorEnabled: boolean;
  privateProfile: boolean;
  /** Absolute URL, or null (the entity then renders a default). */
  avatarUrl: string | null;
  /** `PasswordHasher` output, or null when the user has no password (SSO-only, bots). */
  passwordHash: string | null;
  /** Id of the user's personal namespace (null for bots). */
  namespaceId: number | null;
  /**
   * The host's own id for this user (unique; `fk.users.sync` / `findByExternalId`), so a host with
   * its own user table needs no id map. Null for users the host did not sync.
   */
  externalId: string | null;
  /**
   * The last UTC day (`YYYY-MM-DD`) the user used the API or git over HTTP, or null before the
   * first time (reference `users.last_activity_on`). Written only by `users.recordActivity`.
   */
  lastActivityOn: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An e-mail address of a user; exactly one is `primary`, and only confirmed ones count for matching. */
export interface Email {
  id: number;
  userId: number;
  email: string;
  primary: boolean;
  confirmedAt: Date | null;
  createdAt: Date;
}

/** Whether a namespace is a user's personal namespace or a group. */
export type NamespaceKind = "user" | "group";

/** A user namespace or a group (a group *is* a namespace: the group id is the namespace id). */
export interface Namespace {
  id: number;
  kind: NamespaceKind;
  /** Last path segment. */
  path: string;
  name: string;
  /** `parent/child/…`; unique case-insensitively across namespaces. */
  fullPath: string;
  parentId: number | null;
  /** For user namespaces: the owner. */
  ownerId: number | null;
  visibility: Visibility;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}
/** A group: a namespace of kind `group` (the group id is the namespace id). */
export type Group = Namespace & { kind: "group" };

/** A project as the store holds it: its namespace, path, visibility and where its repository lives. */
export interface Project {
  id: number;
  namespaceId: number;
  path: string;
  name: string;
  /** `<namespace full path>/<path>`; unique case-insensitively. */
  fullPath: string;
  description: string;
  visibility: Visibility;
  creatorId: number | null;
  repositoryStorage: string;
  repositoryReadOnly: boolean;
  defaultBranch: string | null;
  /**
   * Whether the repository has no branch (reference `empty_repo`): kept by every writer of
   * branches (git push, the repository API, imports); `null` for projects from before the store
   * kept it (read from the repository once, then kept).
   */
  repositoryEmpty: boolean | null;
  /**
   * The README at the root of the default branch (reference `readme_url`): its path, `false` when
   * there is none, `null` when not known (every branch push forgets it; reading the project learns
   * it again from the repository: accounts/routes/project-facts.ts).
   */
  readmePath: string | false | null;
  /** The access levels of the project's features (accounts/project-features.ts). */
  features: ProjectFeatures;
  /** What must hold before its merge requests merge (accounts/merge-checks.ts). */
  mergeChecks: ProjectMergeChecks;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
}

/** Where a membership is held: directly on the project, or on a namespace (group) it inherits from. */
export type MemberSource = "project" | "namespace";

/** A user's access level in one project or group, with its optional expiry. */
export interface Membership {
  id: number;
  sourceType: MemberSource;
  sourceId: number;
  userId: number;
  accessLevel: AccessLevel;
  expiresAt: Date | null;
  createdAt: Date;
}

/**
 * The kinds of access token: a user's personal token, an administrator's impersonation token, or a project
 * or group access token (held by a bot user).
 */
export type AccessTokenKind = "personal" | "impersonation" | "project" | "group";

/**
 * An access token as the store holds it: whose it is, its scopes and expiry, and the digest of its secret
 * (never the secret).
 */
export interface AccessToken {
  id: number;
  kind: AccessTokenKind;
  /** The user the token acts as (the bot user for project/group tokens). */
  userId: number;
  name: string;
  scopes: string[];
  /** Hex SHA-256 of the whole token string; the plaintext is never stored. */
  digest: string;
  /** Date-only expiry (end of that day, UTC) or null for never. */
  expiresAt: Date | null;
  revoked: boolean;
  /** Project or group id for project/group tokens. */
  resourceId: number | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}
