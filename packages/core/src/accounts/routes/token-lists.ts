/**
 * What the token list routes share (reference `PersonalAccessTokensHelpers` `access_token_params`):
 * the filter parameters, their application, and paging an in-memory list (a user's or a resource's
 * tokens are few; the store returns them whole).
 */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { HttpRequest, Params } from "../../http/types.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import { tokenActive } from "../tokens.js";
import type { AccessToken } from "../types.js";
import { listHeaders, offsetOnly, PAGINATION_PARAMS, readPage } from "./kit.js";

/** The list filters of every token list route. */
export const TOKEN_FILTER_PARAMS = {
  ...PAGINATION_PARAMS,
  revoked: p.bool().optional(),
  state: p.enum(["active", "inactive"]).optional(),
  created_before: p.datetime().optional(),
  created_after: p.datetime().optional(),
  last_used_before: p.datetime().optional(),
  last_used_after: p.datetime().optional(),
  expires_before: p.date().optional(),
  expires_after: p.date().optional(),
  search: p.string().optional(),
};

/** The decoded filters (the output of {@link TOKEN_FILTER_PARAMS}). */
export interface TokenFilters {
  revoked?: boolean | undefined;
  state?: "active" | "inactive" | undefined;
  created_before?: string | undefined;
  created_after?: string | undefined;
  last_used_before?: string | undefined;
  last_used_after?: string | undefined;
  expires_before?: string | undefined;
  expires_after?: string | undefined;
  search?: string | undefined;
}

const before = (value: Date | null, bound: string | undefined) => bound === undefined || (value !== null && value.getTime() < Date.parse(bound));
const after = (value: Date | null, bound: string | undefined) => bound === undefined || (value !== null && value.getTime() > Date.parse(bound));
/** Expiry filters compare the expiry date (`YYYY-MM-DD`) with the given date. */
const expiryDay = (token: AccessToken) => (token.expiresAt === null ? null : token.expiresAt.toISOString().slice(0, 10));

/** Whether the token passes every given filter at `now`. */
export function matchesFilters(token: AccessToken, filters: TokenFilters, now: Date): boolean {
  if (filters.revoked !== undefined && token.revoked !== filters.revoked) return false;
  if (filters.state !== undefined && tokenActive(token, now) !== (filters.state === "active")) return false;
  if (!before(token.createdAt, filters.created_before) || !after(token.createdAt, filters.created_after)) return false;
  if (!before(token.lastUsedAt, filters.last_used_before) || !after(token.lastUsedAt, filters.last_used_after)) return false;
  const day = expiryDay(token);
  if (filters.expires_before !== undefined && (day === null || day >= filters.expires_before)) return false;
  if (filters.expires_after !== undefined && (day === null || day <= filters.expires_after)) return false;
  return filters.search === undefined || token.name.toLowerCase().includes(filters.search.toLowerCase());
}

/** One page of `tokens` (already filtered) with its pagination headers. */
export function pageOfTokens(
  tokens: readonly AccessToken[],
  params: Params,
  baseUrl: string,
  request: HttpRequest,
): Result<{ items: AccessToken[]; headers: Record<string, string> }, ForgekitError> {
  const page = offsetOnly(readPage(params, null));
  if (page.isErr()) return err(page.error);
  const { page: n, perPage } = page.value;
  const items = tokens.slice((n - 1) * perPage, n * perPage);
  const result = { items, total: tokens.length > TOTAL_COUNT_LIMIT ? null : tokens.length, hasNext: tokens.length > n * perPage };
  return ok({ items, headers: listHeaders(baseUrl, request, page.value, result) });
}
