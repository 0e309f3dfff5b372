/** Offset paging of a list already in memory (small per-project lists: refs, protected refs). */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../errors.js";
import { TOTAL_COUNT_LIMIT } from "../ports/pagination.js";
import { offsetHeaders, offsetPage } from "./pagination-offset.js";
import { parseQuery } from "./query.js";
import type { HttpRequest, Params, RouteResult } from "./types.js";

/** One offset page of an in-memory list, with the pagination headers (links repeat the request's query). */
export function pagedList<T>(baseUrl: string, request: HttpRequest, params: Params, items: readonly T[], render: (item: T) => unknown): Result<RouteResult, ForgekitError> {
  const page = offsetPage(params);
  if (page.isErr()) return err(page.error);
  const { page: n, perPage } = page.value;
  const slice = items.slice((n - 1) * perPage, n * perPage);
  const result = { total: items.length > TOTAL_COUNT_LIMIT ? null : items.length, hasNext: n * perPage < items.length };
  return ok({ body: slice.map(render), headers: offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), page.value, result) });
}
