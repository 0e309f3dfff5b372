/** Offset and keyset pages over an already filtered and ordered array (spec "Pagination"). */
import {
  TOTAL_COUNT_LIMIT,
  type KeysetPageRequest,
  type KeysetPageResult,
  type OffsetPageRequest,
  type OffsetPageResult,
} from "../ports/pagination.js";

/** Rejects page requests outside `page ≥ 1`, `perPage` 1…100. */
export function checkPage(page: { kind: string; perPage: number; page?: number }): void {
  if (!Number.isInteger(page.perPage) || page.perPage < 1 || page.perPage > 100) {
    throw new RangeError(`perPage must be an integer from 1 to 100, got ${page.perPage}`);
  }
  if (page.kind === "offset" && (!Number.isInteger(page.page) || (page.page ?? 0) < 1)) {
    throw new RangeError(`page must be an integer ≥ 1, got ${page.page}`);
  }
}

/** One offset page; `total` is null above TOTAL_COUNT_LIMIT, as the bounded SQL count reports it. */
export function offsetPage<T>(rows: readonly T[], page: OffsetPageRequest, copy: (row: T) => T): OffsetPageResult<T> {
  checkPage(page);
  const start = (page.page - 1) * page.perPage;
  const counted = Math.min(rows.length, TOTAL_COUNT_LIMIT + 1);
  return {
    items: rows.slice(start, start + page.perPage).map(copy),
    total: counted > TOTAL_COUNT_LIMIT ? null : counted,
    hasNext: rows.length > start + page.perPage,
  };
}

/**
 * One keyset page: the rows strictly after the cursor position. `isAfter(row)` says whether a row
 * lies past the decoded cursor in list order; `cursorOf` encodes a row's position.
 */
export function keysetPage<T>(
  rows: readonly T[],
  page: KeysetPageRequest,
  isAfter: ((row: T) => boolean) | null,
  cursorOf: (row: T) => string,
  copy: (row: T) => T,
): KeysetPageResult<T> {
  checkPage(page);
  const remaining = isAfter === null ? rows : rows.filter(isAfter);
  const items = remaining.slice(0, page.perPage);
  const last = items.at(-1);
  return {
    items: items.map(copy),
    nextCursor: remaining.length > page.perPage && last !== undefined ? cursorOf(last) : null,
  };
}
