/**
 * JSON shapes of users (reference `API::Entities::UserBasic`, `User`, `UserPublic`,
 * `UserWithAdmin`). Fields forgekit has no data for carry the value the reference shows for an
 * empty profile (`""`, `null`, `0`, `[]`).
 */
import type { User } from "../types.js";
import { iso } from "./time.js";

/** `id username name state locked avatar_url web_url` (the spec's "User summary" plus `locked`). */
export function userBasic(user: User, baseUrl: string) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: user.avatarUrl,
    web_url: `${baseUrl}/${user.username}`,
  };
}

/**
 * A user's profile as others see it. `created_at`, `followers` and `following` are shown only to
 * viewers allowed to read the profile: the user, administrators, and anyone when the profile is not
 * private (reference `read_user_profile`).
 */
export function userEntity(user: User, baseUrl: string, viewer: User | null) {
  const profileVisible = !user.privateProfile || viewer?.id === user.id || viewer?.admin === true;
  return {
    ...userBasic(user, baseUrl),
    ...(profileVisible ? { created_at: iso(user.createdAt) } : {}),
    bio: "",
    location: "",
    public_email: null,
    skype: "",
    linkedin: "",
    twitter: "",
    discord: "",
    website_url: "",
    organization: "",
    job_title: "",
    pronouns: null,
    bot: user.bot !== null,
    work_information: null,
    ...(profileVisible ? { followers: 0, following: 0 } : {}),
    local_time: null,
  };
}

/**
 * What the reference shows a user about themselves (`GET /user`). `last_activity_on` is the stored
 * activity day (accounts/user-activity.ts); `last_sign_in_at` and `current_sign_in_at` stay null:
 * the host signs users in, so forgekit never sees a sign-in (docs/entities.md).
 */
export function userPublic(user: User, baseUrl: string, email: { address: string | null; confirmedAt: Date | null }) {
  return {
    ...userEntity(user, baseUrl, user),
    last_sign_in_at: null,
    confirmed_at: iso(email.confirmedAt),
    last_activity_on: user.lastActivityOn,
    email: email.address,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100_000,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.bot === null,
    can_create_project: user.bot === null,
    two_factor_enabled: user.twoFactorEnabled,
    external: false,
    private_profile: user.privateProfile,
    commit_email: email.address,
  };
}

/** `userPublic` plus the administrator-only fields. */
export function userWithAdmin(user: User, baseUrl: string, email: { address: string | null; confirmedAt: Date | null }) {
  return {
    ...userPublic(user, baseUrl, email),
    is_admin: user.admin,
    note: null,
    namespace_id: user.namespaceId,
    created_by: null,
    email_reset_offered_at: null,
  };
}

/**
 * One row of `GET /user/activities` (reference `API::Entities::UserActivity`): the username and the
 * activity day, twice (`last_activity_at` is the reference's older name for the same date).
 */
export function userActivityEntity(user: User) {
  return {
    username: user.username,
    last_activity_on: user.lastActivityOn,
    last_activity_at: user.lastActivityOn,
  };
}
