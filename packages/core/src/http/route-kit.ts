/**
 * The route kit every capability builds its routes with (DESIGN §7a): typed route definition from a
 * zod schema, list plumbing (offset or keyset page, pagination headers) and the handler wrapper.
 */
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import type * as z from "zod";
import { errors, type ForgekitError } from "../errors.js";
import type { AnyRoute } from "./router.js";
import { type KeysetAllowed, type KeysetPage, keysetHeaders, keysetPage } from "./pagination-keyset.js";
import { offsetHeaders, offsetPage } from "./pagination-offset.js";
import { parseQuery } from "./query.js";
import type { HttpRequest, Params, Route, RouteContext, RouteResult } from "./types.js";
import { p, parseParams } from "./params.js";
import type { KeysetPageResult, OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { attempt } from "../accounts/service-kit.js";

/** What a route handler receives, with its validated parameters. */
export type HandlerContext<P> = Omit<RouteContext, "params"> & { params: P };

type RouteSpec = Omit<Route, "params" | "handler" | "schema">;

/**
 * Builds a route from a zod parameter schema (validated with the reference's wording by
 * `parseParams`) and a handler typed by that schema's output.
 */
export function defineRoute<S extends z.ZodObject>(
  spec: RouteSpec & { schema: S; handler: (ctx: HandlerContext<z.output<S>>) => ResultAsync<RouteResult, ForgekitError> },
): AnyRoute;
/** Builds a route without parameters of its own. */
export function defineRoute(spec: RouteSpec & { handler: (ctx: HandlerContext<Params>) => ResultAsync<RouteResult, ForgekitError> }): AnyRoute;
export function defineRoute(
  spec: RouteSpec & { schema?: z.ZodObject; handler: (ctx: HandlerContext<never>) => ResultAsync<RouteResult, ForgekitError> },
): AnyRoute {
  const { schema, ...route } = spec;
  if (schema === undefined) return route as AnyRoute;
  return { paramNames: Object.keys(schema.shape), ...route, schema, params: parseParams(schema) } as AnyRoute;
}

/** Names the capability of `routes` (the OpenAPI tag); a route that already has a tag keeps it. */
export function tagRoutes(tag: string, routes: readonly AnyRoute[]): AnyRoute[] {
  return routes.map((route) => (route.tag === undefined ? { ...route, tag } : route));
}

/** The API-wide `read_user` rule of `/user`, `/users`, events, version and metadata (reference §2.4): reads only. */
export const READ_USER = [{ scope: "read_user", readOnly: true }];

/** Reads a list result as offset or keyset, whichever the page asked for. */
export function isOffsetResult<T>(result: OffsetPageResult<T> | KeysetPageResult<T>): result is OffsetPageResult<T> {
  return "hasNext" in result;
}

/**
 * Runs a store list call; a cursor the store cannot decode (RangeError) is the client's mistake,
 * `{"error":"<cursor param> is invalid"}`, not a 500.
 */
export async function listWithCursor<T>(keyset: KeysetPage | null, list: () => Promise<T>): Promise<Result<T, ForgekitError>> {
  try {
    return ok(await list());
  } catch (cause) {
    if (keyset !== null && keyset.after !== undefined && cause instanceof RangeError) return err(errors.invalidParam(keyset.cursorParam));
    throw cause;
  }
}

/** The page a list request asks for: keyset when `pagination=keyset` (checked against `allowed`), else offset. */
export function readPage(params: Params, allowed: KeysetAllowed | null): Result<KeysetPage | OffsetPageRequest, ForgekitError> {
  return keysetPage(params, allowed).andThen((keyset): Result<KeysetPage | OffsetPageRequest, ForgekitError> => (keyset ? ok(keyset) : offsetPage(params)));
}

/** Pagination headers for a list response; links repeat the request's literal query. */
export function listHeaders(
  baseUrl: string,
  request: HttpRequest,
  page: KeysetPage | OffsetPageRequest,
  result: OffsetPageResult<unknown> | KeysetPageResult<unknown>,
): Record<string, string> {
  const query = parseQuery(request.rawQuery);
  if (page.kind === "keyset") return isOffsetResult(result) ? {} : keysetHeaders(baseUrl, request, query, page, result);
  return isOffsetResult(result) ? offsetHeaders(baseUrl, request, query, page, result) : {};
}

/** Runs a handler body; a throw becomes `internal` (500, logged). */
export function respond(body: () => Promise<Result<RouteResult, ForgekitError>>): ResultAsync<RouteResult, ForgekitError> {
  return attempt(body);
}

/** A parameter kept raw (the pagination helpers report their own errors), documented as `doc` (JSON Schema). */
const rawParam = (doc: Record<string, unknown>) => p.raw().meta(doc).optional();

/** Pagination parameters, kept raw for the pagination helpers (they report their own errors). */
export const PAGINATION_PARAMS = {
  pagination: rawParam({ type: "string", enum: ["keyset"], description: "keyset pagination (only where the resource supports it)" }),
  page: rawParam({ type: "integer", minimum: 1, default: 1, description: "offset pagination: the page" }),
  per_page: rawParam({ type: "integer", minimum: 1, maximum: 100, default: 20, description: "items per page" }),
  id_after: rawParam({ type: "integer", description: "keyset cursor: records after this id" }),
  id_before: rawParam({ type: "integer", description: "keyset cursor: records before this id" }),
  cursor: rawParam({ type: "string", description: "keyset cursor from the previous page's next link" }),
};

/** Narrows a page to offset pagination (routes that pass no keyset rules to `readPage` only ever get one). */
export function offsetOnly(page: Result<KeysetPage | OffsetPageRequest, ForgekitError>): Result<OffsetPageRequest, ForgekitError> {
  return page.andThen((value) => (value.kind === "offset" ? ok(value) : err(errors.internal(new Error("keyset page without keyset support")))));
}

/**
 * The reference's `at_least_one_of`: when none of `names` was given, the 400
 * `{"error":"a, b are missing, at least one parameter must be provided"}`; otherwise null.
 */
export function noneGiven(params: object, names: readonly string[]): ForgekitError | null {
  const given = params as Record<string, unknown>;
  return names.some((name) => given[name] !== undefined) ? null : errors.invalidParam(names.join(", "), "are missing, at least one parameter must be provided");
}
