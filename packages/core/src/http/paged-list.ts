/** Offset paging of a list already in memory (small per-project lists: refs, protected refs, versions, closing issues). */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../errors.js";
import { TOTAL_COUNT_LIMIT } from "../ports/pagination.js";
import { offsetHeaders, offsetPage } from "./pagination-offset.js";
import { parseQuery } from "./query.js";
import type { HttpRequest, Params, RouteResult } from "./types.js";

/** One offset page of an in-memory list, with the pagination headers (links repeat the request's query). */
export function pagedList<T>(baseUrl: string, request: HttpRequest, params: Params, items: readonly T[], render: (item: T) => unknown): Result<RouteResult, ForgekitError> {
  const page = slicePage(params, items);
  if (page.isErr()) return err(page.error);
  return ok({ body: page.value.slice.map(render), headers: page.value.headers(baseUrl, request) });
}

/** {@link pagedList} whose page is rendered at once, asynchronously (batched lookups, git reads). */
export async function pagedListOf<T>(baseUrl: string, request: HttpRequest, params: Params, items: readonly T[], render: (page: readonly T[]) => Promise<unknown[]>): Promise<Result<RouteResult, ForgekitError>> {
  const page = slicePage(params, items);
  if (page.isErr()) return err(page.error);
  return ok({ body: await render(page.value.slice), headers: page.value.headers(baseUrl, request) });
}

/**
 * {@link pagedList}, with what the page's items need loaded for the page at once (`load` gets
 * only that page's items: one lookup per page, not one per item).
 */
export async function pagedListLoaded<T>(baseUrl: string, request: HttpRequest, params: Params, items: readonly T[], load: (page: readonly T[]) => Promise<(item: T) => unknown>): Promise<Result<RouteResult, ForgekitError>> {
  const page = slicePage(params, items);
  if (page.isErr()) return err(page.error);
  const render = await load(page.value.slice);
  return ok({ body: page.value.slice.map(render), headers: page.value.headers(baseUrl, request) });
}

function slicePage<T>(params: Params, items: readonly T[]) {
  return offsetPage(params).map((page) => {
    const { page: n, perPage } = page;
    const result = { total: items.length > TOTAL_COUNT_LIMIT ? null : items.length, hasNext: n * perPage < items.length };
    return { slice: items.slice((n - 1) * perPage, n * perPage), headers: (baseUrl: string, request: HttpRequest) => offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), page, result) };
  });
}
