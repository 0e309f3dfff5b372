/** Page requests and results shared by every list method of the store (spec "Pagination"). */

/** Offset pagination: `page` ≥ 1, `perPage` 1…100. */
export interface OffsetPageRequest {
  kind: "offset";
  page: number;
  perPage: number;
}

/** Keyset pagination: items strictly after `after` (a store-defined cursor value) in the list order. */
export interface KeysetPageRequest {
  kind: "keyset";
  /** Cursor of the last item of the previous page, or undefined for the first page. */
  after?: string | undefined;
  perPage: number;
}

export type PageRequest = OffsetPageRequest | KeysetPageRequest;

/** Records above which totals are not reported (spec "Limits": 10,000). */
export const TOTAL_COUNT_LIMIT = 10_000;

export interface OffsetPageResult<T> {
  items: T[];
  /** Exact number of matching records, or null when more than TOTAL_COUNT_LIMIT match (counted with a bounded query). */
  total: number | null;
  /** Whether a further page has at least one record (known even when `total` is null). */
  hasNext: boolean;
}

export interface KeysetPageResult<T> {
  items: T[];
  /** Cursor to pass as `after` for the next page; null at the end of the collection. */
  nextCursor: string | null;
}
