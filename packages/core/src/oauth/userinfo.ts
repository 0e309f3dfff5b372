/**
 * OpenID Connect userinfo claims (OIDC Core §5.3; reference conventions §1.8): `sub` as a string
 * (client-compatibility 10); the profile claims with `profile`; the primary email and whether it
 * is verified with `email`, else only a public email. Empty values are left out.
 */

/** What the accounts capability supplies about the user. */
export interface UserinfoProfile {
  id: number;
  username: string;
  name: string;
  /** The user's page, e.g. `${baseUrl}/${username}`. */
  profileUrl: string;
  avatarUrl: string | null;
  /** Full paths of every group the user is a member of. */
  groups: string[];
  primaryEmail: { address: string; verified: boolean } | null;
  /** Shown without the `email` scope when the user made an address public. */
  publicEmail: { address: string; verified: boolean } | null;
  website?: string | null;
}

export interface UserinfoClaims {
  sub: string;
  name?: string;
  nickname?: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  website?: string;
  profile?: string;
  picture?: string;
  groups?: string[];
}

/** Builds the claims a token with `scopes` may see. */
export function buildUserinfoClaims(profile: UserinfoProfile, scopes: readonly string[]): UserinfoClaims {
  const claims: UserinfoClaims = { sub: String(profile.id) };
  // The reference discloses the profile with `openid` alone; `profile` is accepted as well.
  if (scopes.includes("openid") || scopes.includes("profile")) {
    if (profile.name !== "") claims.name = profile.name;
    claims.nickname = profile.username;
    claims.preferred_username = profile.username;
    if (profile.website) claims.website = profile.website;
    claims.profile = profile.profileUrl;
    if (profile.avatarUrl) claims.picture = profile.avatarUrl;
    claims.groups = [...profile.groups];
  }
  const email = scopes.includes("email") && profile.primaryEmail !== null ? profile.primaryEmail : profile.publicEmail;
  if (email !== null) {
    claims.email = email.address;
    claims.email_verified = email.verified;
  }
  return claims;
}
