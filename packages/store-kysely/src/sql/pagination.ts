/** Offset and keyset pages over a filtered query; totals come from a bounded count (spec "Limits"). */
import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import type { KeysetPageRequest, OffsetPageRequest, OffsetPageResult } from "@forgekit/core";
import { TOTAL_COUNT_LIMIT } from "@forgekit/core/internal";
import type { Database } from "../schema.js";

/** Rejects page requests outside `page ≥ 1`, `perPage` 1…100 (as the memory store does). */
export function checkPage(page: OffsetPageRequest | KeysetPageRequest): void {
  if (!Number.isInteger(page.perPage) || page.perPage < 1 || page.perPage > 100) {
    throw new RangeError(`perPage must be an integer from 1 to 100, got ${page.perPage}`);
  }
  if (page.kind === "offset" && (!Number.isInteger(page.page) || page.page < 1)) {
    throw new RangeError(`page must be an integer ≥ 1, got ${page.page}`);
  }
}

/**
 * One offset page. `filtered` holds the FROM and WHERE (visibility included, so filtering never
 * happens after paging); `ordered` adds the select list and ORDER BY. One row past the page tells
 * `hasNext`; the total is counted only up to TOTAL_COUNT_LIMIT + 1 rows and is null beyond.
 * `knownTotal`, when given, is asked first: a number (exact, or any number above the limit, as
 * counters maintained with the rows can tell) is the total without counting; null → counted.
 */
export async function offsetPage<DB, TB extends keyof DB, Row, T>(
  db: Kysely<Database>,
  filtered: SelectQueryBuilder<DB, TB, object>,
  ordered: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  page: OffsetPageRequest,
  map: (row: Row) => T,
  knownTotal?: () => Promise<number | null>,
): Promise<OffsetPageResult<T>> {
  checkPage(page);
  const skip = (page.page - 1) * page.perPage;
  const rows = await ordered(filtered)
    .limit(page.perPage + 1)
    .offset(skip)
    .execute();
  const hasNext = rows.length > page.perPage;
  let total: number;
  if (rows.length > 0 && !hasNext) {
    total = skip + rows.length;
  } else {
    const known = knownTotal === undefined ? null : await knownTotal();
    total = known ?? (await boundedCount(db, filtered));
  }
  return {
    items: rows.slice(0, page.perPage).map(map),
    total: total > TOTAL_COUNT_LIMIT ? null : total,
    hasNext,
  };
}

/** How many rows `filtered` holds, counted up to TOTAL_COUNT_LIMIT + 1. */
async function boundedCount<DB, TB extends keyof DB>(db: Kysely<Database>, filtered: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const bounded = filtered.select(sql.lit(1).as("one")).limit(TOTAL_COUNT_LIMIT + 1).as("bounded");
  const counted = await db.selectFrom(bounded).select((eb) => eb.fn.countAll<number | string | bigint>().as("n")).executeTakeFirstOrThrow();
  return Number(counted.n);
}
