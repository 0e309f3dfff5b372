/** The resolved caller of a request. */
import type { AccessToken, User } from "../accounts/types.js";

/**
 * What authenticated a request: an OAuth token, an access token of a kind, a host session or a CI job
 * token.
 */
export type CredentialKind = "oauth" | "personal" | "impersonation" | "project" | "group" | "session" | "job";

/**
 * The credential a request authenticated with: its kind, the scopes it carries and, for access tokens, the
 * token row.
 */
export interface Credential {
  /** What kind of credential it is. */
  kind: CredentialKind;
  /** Scopes the credential carries; `null` for sessions (all scopes of a signed-in user). */
  scopes: string[] | null;
  /** The access token row for personal/impersonation/project/group tokens. */
  accessToken?: AccessToken;
  /** Id of the OAuth access token, job or session, for audit. */
  id?: number | string;
}

/** The resolved caller of a request: the user it acts as (null when anonymous) and how it authenticated. */
export interface Identity {
  /** The user the request acts as (the sudo target when sudo is used); null = anonymous. */
  user: User | null;
  /**  null;|How the request authenticated; null when anonymous. */
  credential: Credential | null;
  /** The administrator who used sudo, when the request runs as another user. */
  sudoFrom?: User;
  /** Project a job token belongs to. */
  jobProjectId?: number;
  /**
   * What the route's `auth.withToken` read with the access token (never set when sudo is active:
   * it was read for the token's user, not the one the request acts as).
   */
  preread?: object;
}

/** The identity of a request without credentials. */
export const anonymous: Identity = { user: null, credential: null };
