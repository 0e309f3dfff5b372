/** Page requests and results shared by every list method of the store (spec "Pagination"). */

/** Offset pagination: `page` ≥ 1, `perPage` 1…100. */
export interface OffsetPageRequest {
  /** Marks an offset page request. */
  kind: "offset";
  /** The page number, from 1. */
  page: number;
  perPage: number;
}

/** Keyset pagination: items strictly after `after` (a store-defined cursor value) in the list order. */
export interface KeysetPageRequest {
  /** Marks a keyset page request. */
  kind: "keyset";
  /** Cursor of the last item of the previous page, or undefined for the first page. */
  after?: string | undefined;
  perPage: number;
}

/** A page request of either kind: by offset (`page`) or by keyset (the `after` cursor). */
export type PageRequest = OffsetPageRequest | KeysetPageRequest;

/** Records above which totals are not reported (spec "Limits": 10,000). */
export const TOTAL_COUNT_LIMIT = 10_000;

/** One page of an offset-paginated list, with the total (null above {@link TOTAL_COUNT_LIMIT}) and whether a next page exists. */
export interface OffsetPageResult<T> {
  items: T[];
  /** Exact number of matching records, or null when more than TOTAL_COUNT_LIMIT match (counted with a bounded query). */
  total: number | null;
  /** Whether a further page has at least one record (known even when `total` is null). */
  hasNext: boolean;
}

/** One page of a keyset-paginated list, with the cursor of the next page (null on the last). */
export interface KeysetPageResult<T> {
  items: T[];
  /** Cursor to pass as `after` for the next page; null at the end of the collection. */
  nextCursor: string | null;
}
