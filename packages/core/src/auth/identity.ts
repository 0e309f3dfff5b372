/** The resolved caller of a request. */
import type { AccessToken, User } from "../accounts/types.js";

export type CredentialKind = "oauth" | "personal" | "impersonation" | "project" | "group" | "session" | "job";

export interface Credential {
  kind: CredentialKind;
  /** Scopes the credential carries; `null` for sessions (all scopes of a signed-in user). */
  scopes: string[] | null;
  /** The access token row for personal/impersonation/project/group tokens. */
  accessToken?: AccessToken;
  /** Id of the OAuth access token, job or session, for audit. */
  id?: number | string;
}

export interface Identity {
  /** The user the request acts as (the sudo target when sudo is used); null = anonymous. */
  user: User | null;
  credential: Credential | null;
  /** The administrator who used sudo, when the request runs as another user. */
  sudoFrom?: User;
  /** Project a job token belongs to. */
  jobProjectId?: number;
}

export const anonymous: Identity = { user: null, credential: null };
