/**
 * What an authenticated `GET /projects/:id` reads (issue 21), returned by
 * {@link AccessTokenRepository.findByDigestWithProject} in one lookup — one statement on the SQL
 * stores — so the route's request is one round trip. Nothing here is cached: the token, its user,
 * the memberships and the project are read as they are now, so a revocation, a block or a
 * permission change is seen by the next request.
 */
import type { AccessToken, Namespace, Project, User } from "../accounts/types.js";
import type { ImportStatus } from "./imports-store.js";

/** The token with that digest, its user, and the project with the user's levels on it. */
export interface TokenProjectRead {
  token: AccessToken;
  /** The token's user; null when that user no longer exists. */
  user: User | null;
  /** The project with the asked id and what its entity shows; null when there is no such project (or no user). */
  project: ProjectReadView | null;
}

/** A project, its namespace chain and the token user's levels on it, all read at the same `now`. */
export interface ProjectReadView {
  project: Project;
  /** The project's namespace and its ancestors, the namespace itself first (as `namespaces.chain`). */
  chain: Namespace[];
  /** The owner of a user namespace; null for a group namespace (or a user namespace without owner). */
  owner: User | null;
  /** The user's direct membership level of the project unexpired at `now`; 0 when none. */
  direct: number;
  /**
   * The user's highest level on the project's namespace chain unexpired at `now` (as
   * `members.namespaceAccessLevel` of the project's namespace: a user namespace's owner counts as Owner); 0 when none.
   */
  chainLevel: number;
  /** Issues of the project in state `opened`. */
  openIssues: number;
  /** The project's import status; null when it was not imported. */
  importStatus: ImportStatus | null;
}
