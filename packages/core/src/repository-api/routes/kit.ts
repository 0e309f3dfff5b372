/** What the repository routes share: auth modes, the project + repository lookup, in-memory paging. */
import { err, ok, type Result } from "neverthrow";
import type { ForgekitError } from "../../errors.js";
import { offsetHeaders, offsetPage } from "../../http/pagination-offset.js";
import { parseQuery } from "../../http/query.js";
import type { HttpRequest, Params, RouteAuth, RouteResult } from "../../http/types.js";
import type { Identity } from "../../auth/identity.js";
import { TOTAL_COUNT_LIMIT } from "../../ports/pagination.js";
import { projectRepository, requireRepo, type ProjectRepository, type RepositoryApiDeps } from "../context.js";
import type { GitRepo } from "../git/repo.js";

/** Reads: anonymous on public projects; `read_repository` tokens too (reference `allow_access_with_scope`). */
export const READ_AUTH: RouteAuth = { mode: "optional", extraScopes: [{ scope: "read_repository", readOnly: true }] };
/** Writes: signed in, `api` scope (read_api and read_repository tokens get 403 insufficient_scope). */
export const WRITE_AUTH: RouteAuth = { mode: "required" };

/** A project with its repository open. */
export type Opened = ProjectRepository & { repo: GitRepo };

/** Looks up `:id` for `access` and opens its repository, then runs `fn`. */
export async function withRepository(deps: RepositoryApiDeps, identity: Identity, id: string | undefined, access: "read" | "write", fn: (o: Opened) => Promise<Result<RouteResult, ForgekitError>>): Promise<Result<RouteResult, ForgekitError>> {
  const found = await projectRepository(deps, identity, id ?? "", access);
  if (found.isErr()) return err(found.error);
  const repo = requireRepo(found.value);
  if (repo.isErr()) return err(repo.error);
  return fn({ ...found.value, repo: repo.value });
}

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

function slicePage<T>(params: Params, items: readonly T[]) {
  return offsetPage(params).map((page) => {
    const { page: n, perPage } = page;
    const result = { total: items.length > TOTAL_COUNT_LIMIT ? null : items.length, hasNext: n * perPage < items.length };
    return { slice: items.slice((n - 1) * perPage, n * perPage), headers: (baseUrl: string, request: HttpRequest) => offsetHeaders(baseUrl, request, parseQuery(request.rawQuery), page, result) };
  });
}

/**
 * {@link pagedList}, with what the page's items need loaded for the page at once (`load` gets
 * only that page's items: one lookup per page, not one per item).
 */
export async function pagedListLoaded<T>(baseUrl: string, request: HttpRequest, params: Params, items: readonly T[], load: (page: readonly T[]) => Promise<(item: T) => unknown>): Promise<Result<RouteResult, ForgekitError>> {
  const page = offsetPage(params);
  if (page.isErr()) return err(page.error);
  const { page: n, perPage } = page.value;
  return pagedList(baseUrl, request, params, items, await load(items.slice((n - 1) * perPage, n * perPage)));
}
