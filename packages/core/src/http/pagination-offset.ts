/**
 * Offset pagination (spec "Pagination" and "Limits"; reference §3.4): `page` default 1 (≤ 0 → 1),
 * `per_page` default 20, above 100 clamped to 100, 0 refused, negative → default (Kaminari).
 */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../errors.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { formatLink, linkUrl } from "./links.js";
import { paramError, parseInteger, REASONS, type ParamIssue } from "./params.js";
import type { HttpRequest, ParamValue, Params } from "./types.js";

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

const absent = (v: ParamValue | undefined): boolean => v === undefined || v === null || v === "";

/** Reads `per_page` (shared with keyset pagination): a number 1…100, or an issue. */
export function readPerPage(params: Params): number | ParamIssue {
  const raw = params["per_page"];
  if (absent(raw)) return DEFAULT_PER_PAGE;
  const n = parseInteger(raw);
  if (n === null) return { param: "per_page", reason: REASONS.invalid };
  if (n === 0) return { param: "per_page", reason: REASONS.notAllowed };
  if (n < 0) return DEFAULT_PER_PAGE;
  return Math.min(n, MAX_PER_PAGE);
}

/** Reads `page` and `per_page` into an offset page request, or a 400 in the reference's words. */
export function offsetPage(params: Params): Result<OffsetPageRequest, ForgekitError> {
  const issues: ParamIssue[] = [];
  let page = 1;
  const rawPage = params["page"];
  if (!absent(rawPage)) {
    const n = parseInteger(rawPage);
    if (n === null) issues.push({ param: "page", reason: REASONS.invalid });
    else page = Math.max(1, n);
  }
  const perPage = readPerPage(params);
  if (typeof perPage !== "number") issues.push(perPage);
  if (issues.length > 0 || typeof perPage !== "number") return err(paramError(issues));
  return ok({ kind: "offset", page, perPage });
}

/**
 * Pagination headers for one offset page: `Link` (rels prev, next, first, last; absolute URLs from
 * `baseUrl`, e.g. `https://host/prefix`, + the request path), `x-next-page`, `x-page`, `x-per-page`,
 * `x-prev-page` (`""` when none), `x-total`, `x-total-pages` (at least 1). When `result.total` is
 * null (more than 10,000 records) `x-total`, `x-total-pages` and the `last` link are omitted.
 *
 * `params` are the parameters the links repeat — usually `parseQuery(req.rawQuery)` (the literal
 * query) or `ctx.params` (declared filters with their defaults, as the reference does); `page` and
 * `per_page` are replaced.
 */
export function offsetHeaders(
  baseUrl: string,
  req: HttpRequest,
  params: Params,
  pageReq: OffsetPageRequest,
  result: Pick<OffsetPageResult<unknown>, "total" | "hasNext">,
): Record<string, string> {
  const { page, perPage } = pageReq;
  const url = (n: number) => linkUrl(baseUrl, req, { ...params, page: String(n), per_page: String(perPage) });
  const totalPages = result.total === null ? null : Math.max(1, Math.ceil(result.total / perPage));
  const links: [string, string][] = [];
  if (page > 1) links.push(["prev", url(page - 1)]);
  if (result.hasNext) links.push(["next", url(page + 1)]);
  links.push(["first", url(1)]);
  if (totalPages !== null) links.push(["last", url(totalPages)]);
  const headers: Record<string, string> = {
    link: formatLink(links),
    "x-next-page": result.hasNext ? String(page + 1) : "",
    "x-page": String(page),
    "x-per-page": String(perPage),
    "x-prev-page": page > 1 ? String(page - 1) : "",
  };
  if (result.total !== null && totalPages !== null) {
    headers["x-total"] = String(result.total);
    headers["x-total-pages"] = String(totalPages);
  }
  return headers;
}
