/** Storage port of project and group memberships and the access levels they give (ports/store.ts conventions). */
import type { AccessLevel, Membership, MemberSource } from "../accounts/types.js";

/** What adding a member to a project or group takes: who, where, at which access level, until when. */
export interface NewMembership {
  sourceType: MemberSource;
  sourceId: number;
  userId: number;
  accessLevel: AccessLevel;
  expiresAt?: Date | null;
}

/**
 * The store's memberships of projects and groups: add, find, change level or expiry, remove, list, and
 * resolve effective access levels.
 */
export interface MemberRepository {
  /** `null` when the user already is a direct member of that source. */
  add(input: NewMembership, now: Date): Promise<Membership | null>;
  find(sourceType: MemberSource, sourceId: number, userId: number): Promise<Membership | null>;
  updateAccessLevel(id: number, level: AccessLevel): Promise<Membership | null>;
  /** Sets the expiry (`null`: never expires); the updated row, `null` when missing. */
  updateExpiry(id: number, expiresAt: Date | null): Promise<Membership | null>;
  /** Returns whether a row was removed. */
  remove(id: number): Promise<boolean>;
  /**
   * The source's direct memberships in id order. With `now`, only those unexpired at `now` (no
   * expiry, or expiry strictly later) — what counts for access, member lists and recipients;
   * without it every row, expired or not (administration: deletion, expiry changes).
   */
  listBySource(sourceType: MemberSource, sourceId: number, now?: Date): Promise<Membership[]>;
  /**
   * Highest unexpired access level of the user on the namespace, taking memberships of the
   * namespace and all its ancestors; for a user namespace, its owner counts as Owner. 0 when none.
   */
  namespaceAccessLevel(userId: number, namespaceId: number, now: Date): Promise<number>;
  /** Highest unexpired level from a direct project membership or the project's namespace chain (as above). 0 when none. */
  projectAccessLevel(userId: number, projectId: number, now: Date): Promise<number>;
  /** {@link projectAccessLevel} of several projects in one read; projects where the user has no level are absent. */
  projectAccessLevels(userId: number, projectIds: readonly number[], now: Date): Promise<Map<number, number>>;
  /**
   * The two levels `GET /projects/:id` shows under `permissions`, in one lookup: `project`, the
   * level of the user's direct membership of the project unexpired at `now` (0 when none or
   * expired: an expired membership never counts, issue #23), and `group`,
   * {@link namespaceAccessLevel} of `groupId` at `now` (0 when `groupId` is null).
   */
  projectPermissionLevels(userId: number, projectId: number, groupId: number | null, now: Date): Promise<{ project: number; group: number }>;
  /**
   * Optional: {@link projectPermissionLevels} together with the project's open-issue count and its
   * import status (null when it was not imported), read in one statement — a store that can do so
   * saves `GET /projects/:id` two round trips; without it they are read one by one.
   */
  projectReadFacts?(userId: number, projectId: number, groupId: number | null, now: Date): Promise<ProjectReadFacts>;
}

/** What {@link MemberRepository.projectReadFacts} reads at once for `GET /projects/:id`. */
export interface ProjectReadFacts {
  project: number;
  group: number;
  openIssues: number;
  importStatus: string | null;
}
