/**
 * The namespace list of `GET /namespaces` (reference `User#namespaces`, `Namespace.all` for
 * administrators) and the member counts its entity shows: part of {@link NamespaceRepository}.
 */
import type { Namespace } from "../accounts/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** Which namespaces {@link NamespaceListing.listNamespaces} returns. */
export interface NamespaceListFilter {
  /**
   * Only this user's personal namespace and the groups where they hold a direct membership
   * (unexpired at `now`); omitted: every namespace (what administrators see).
   */
  memberId?: number;
  /** With `memberId`: only groups where that direct membership is Owner (the personal namespace stays). */
  ownedOnly?: boolean;
  /** Only namespaces without a parent. */
  topLevelOnly?: boolean;
  /** Case-insensitive substring of name or path. */
  search?: string;
  /** Memberships expired at this instant are ignored; without it every membership counts. */
  now?: Date;
}

/** Listing namespaces (users' and groups') and counting the members of group hierarchies. */
export interface NamespaceListing {
  /** The namespaces the filter selects, by id ascending (the reference's default order). */
  listNamespaces(filter: NamespaceListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Namespace>>;
  /**
   * For each of these groups, how many distinct users hold a direct membership (unexpired at
   * `now`) of the group or any of its descendants (reference `users_with_descendants.count`), in
   * one lookup. Ids that name no group are left out of the map.
   */
  membersWithDescendants(groupIds: readonly number[], now: Date): Promise<Map<number, number>>;
}
