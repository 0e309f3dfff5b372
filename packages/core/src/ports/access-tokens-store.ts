/** The access-token port (personal, impersonation, project, group and deploy-style tokens; DESIGN §5). */
import type { AccessToken, AccessTokenKind, User } from "../accounts/types.js";
import type { TokenProjectRead } from "./project-read-store.js";

/** What creating an access token takes: its owner, kind, scopes, expiry and the digest of its secret. */
export interface NewAccessToken extends Pick<AccessToken, "kind" | "userId" | "name" | "scopes" | "digest" | "expiresAt"> {
  resourceId?: number | null;
  /** The token this one replaces by rotation (its token family); absent/null for a new token. */
  previousTokenId?: number | null;
}

/** Filters of the access-token list (owner, kind, resource, state). */
export interface TokenListFilter {
  userId?: number;
  kind?: AccessTokenKind;
  resourceId?: number;
  /** `active` = not revoked and not expired at `now`. */
  state?: "active" | "inactive";
  now?: Date;
}

/**
 * The store's access tokens: create, find by id or digest, list, revoke (one or a rotated family) and
 * record their last use.
 */
export interface AccessTokenRepository {
  create(input: NewAccessToken, now: Date): Promise<AccessToken>;
  findById(id: number): Promise<AccessToken | null>;
  findByDigest(digest: string): Promise<AccessToken | null>;
  /**
   * The token with that digest and its user, read together (authentication reads both on every
   * request); `user` is null when the token's user no longer exists.
   */
  findByDigestWithUser(digest: string): Promise<{ token: AccessToken; user: User | null } | null>;
  /**
   * {@link findByDigestWithUser} together with the project `projectId` as `GET /projects/:id`
   * shows it to that user (ports/project-read-store.ts), read at `now` in one lookup; null when no
   * token has that digest.
   */
  findByDigestWithProject(digest: string, projectId: number, now: Date): Promise<TokenProjectRead | null>;
  /** Ordered by id ascending. */
  list(filter: TokenListFilter): Promise<AccessToken[]>;
  /** Marks the token revoked; returns false when it did not exist or was already revoked. */
  revoke(id: number): Promise<boolean>;
  /**
   * Revokes every token descended from `id` by rotation (its successor, that one's successor, …;
   * not `id` itself) and returns how many were still unrevoked.
   */
  revokeFamily(id: number): Promise<number>;
  touchLastUsed(id: number, at: Date): Promise<void>;
}
