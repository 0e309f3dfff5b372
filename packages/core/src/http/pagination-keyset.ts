/**
 * Keyset pagination (spec "Pagination"; reference §3.5): opt-in `pagination=keyset` with the
 * resource's one allowed ordering; the next page is reached only through the `Link: rel="next"`
 * URL, which is absent at the end. Projects carry `id_after` / `id_before`, others an opaque `cursor`.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { err, ok, type Result } from "neverthrow";
import { errors, type ForgekitError } from "../errors.js";
import type { KeysetPageRequest, KeysetPageResult } from "../ports/pagination.js";
import { formatLink, linkUrl } from "./links.js";
import { readPerPage } from "./pagination-offset.js";
import { inIdRange } from "../ids.js";
import { paramError, parseInteger, REASONS } from "./params.js";
import type { HttpRequest, Params } from "./types.js";

export type SortDirection = "asc" | "desc";

/** The ordering a resource supports with keyset pagination (spec "Pagination" table). */
export interface KeysetAllowed {
  orderBy: string;
  sort: readonly SortDirection[];
  /** `id`: Projects' `id_after` (asc) / `id_before` (desc); `opaque`: `cursor=<base64url>`. */
  cursor: "id" | "opaque";
  /** Used when the client leaves `order_by` / `sort` out (python-gitlab sends no `sort`). */
  defaults?: { orderBy?: string; sort?: SortDirection };
}

/** A validated keyset request: the store's page request plus the ordering and the cursor parameter. */
export interface KeysetPage extends KeysetPageRequest {
  orderBy: string;
  sort: SortDirection;
  cursorParam: "id_after" | "id_before" | "cursor";
}

/** 405 body for a resource or ordering without keyset support (reference §3.5). */
export const KEYSET_NOT_AVAILABLE = "Keyset pagination is not yet available for this type of request";

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * `ok(null)` unless `pagination=keyset` (`pagination=offset` is offset pagination); otherwise the
 * validated keyset request, or 405 when `allowed` is null or `order_by` / `sort` fall outside it.
 */
export function keysetPage(params: Params, allowed: KeysetAllowed | null): Result<KeysetPage | null, ForgekitError> {
  const mode = params["pagination"];
  if (mode === undefined || mode === null || mode === "" || mode === "offset") return ok(null);
  if (mode !== "keyset") return err(paramError([{ param: "pagination", reason: REASONS.notValid }]));
  const notAvailable = err(errors.notAllowedError(KEYSET_NOT_AVAILABLE));
  if (allowed === null) return notAvailable;
  const orderBy = params["order_by"] ?? allowed.defaults?.orderBy;
  const sort = params["sort"] ?? allowed.defaults?.sort;
  if (orderBy !== allowed.orderBy) return notAvailable;
  if (typeof sort !== "string" || !(allowed.sort as readonly string[]).includes(sort)) return notAvailable;
  const perPage = readPerPage(params);
  if (typeof perPage !== "number") return err(paramError([perPage]));
  const direction = sort as SortDirection;
  const cursorParam = allowed.cursor === "opaque" ? "cursor" : direction === "asc" ? "id_after" : "id_before";
  const raw = params[cursorParam];
  let after: string | undefined;
  if (raw !== undefined && raw !== null && raw !== "") {
    const decoded = allowed.cursor === "opaque" ? decodeCursor(raw) : idCursor(raw);
    if (decoded === null) return err(paramError([{ param: cursorParam, reason: REASONS.invalid }]));
    after = decoded;
  }
  return ok({ kind: "keyset", after, perPage, orderBy: allowed.orderBy, sort: direction, cursorParam });
}

/** `id_after` / `id_before`: an integer within the id range (stores compare it with an integer column). */
function idCursor(raw: unknown): string | null {
  const n = parseInteger(raw);
  return n === null || !inIdRange(n) ? null : String(n);
}

function decodeCursor(raw: unknown): string | null {
  if (typeof raw !== "string" || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  try {
    return decoder.decode(decodeBase64urlIgnorePadding(raw));
  } catch {
    return null;
  }
}

/** The `cursor` value for a store cursor (base64url, so the client treats it as opaque). */
export function encodeCursor(cursor: string): string {
  return encodeBase64urlNoPadding(encoder.encode(cursor));
}

/**
 * `Link: <url>; rel="next"` carrying the next cursor, repeating `params` (usually
 * `parseQuery(req.rawQuery)`: `pagination`, `order_by`, `sort`, `per_page` and filters); no header
 * at the end of the collection and never x-total headers (client-compatibility §6.5).
 */
export function keysetHeaders(
  baseUrl: string,
  req: HttpRequest,
  params: Params,
  pageReq: KeysetPage,
  result: Pick<KeysetPageResult<unknown>, "nextCursor" | "items">,
): Record<string, string> {
  if (result.nextCursor === null || result.items.length === 0) return {};
  const next: Params = { ...params };
  delete next["id_after"];
  delete next["id_before"];
  delete next["cursor"];
  next[pageReq.cursorParam] = pageReq.cursorParam === "cursor" ? encodeCursor(result.nextCursor) : result.nextCursor;
  return { link: formatLink([["next", linkUrl(baseUrl, req, next)]]) };
}
