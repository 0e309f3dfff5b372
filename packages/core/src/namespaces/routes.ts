/**
 * `GET /namespaces`, `GET /namespaces/:id`, `GET /namespaces/:id/exists` (reference
 * `lib/api/namespaces.rb`; every route needs a signed-in caller).
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import type { Namespace, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { isRecordId } from "../ids.js";
import { errors } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { NamespaceListFilter } from "../ports/namespace-list.js";
import { renderNamespaces } from "./entity.js";
import { pathSuggestion } from "./exists.js";

const AUTH = { mode: "required" as const };

/** Builds the namespace routes. */
export function namespaceRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock, baseUrl } = config;
  return [
    defineRoute({
      method: "GET",
      path: "/namespaces",
      auth: AUTH,
      schema: z.object({ ...PAGINATION_PARAMS, search: p.string().optional(), owned_only: p.bool().optional(), top_level_only: p.bool().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          // Reference: administrators list `Namespace.all` (owned_only is ignored for them); everyone
          // else `User#namespaces`: the personal namespace and the groups of direct memberships.
          const filter: NamespaceListFilter = {
            now: clock.now(),
            ...(user.admin ? {} : { memberId: user.id, ownedOnly: params.owned_only === true }),
            ...(params.top_level_only === true ? { topLevelOnly: true } : {}),
            ...(params.search !== undefined && params.search !== "" ? { search: params.search } : {}),
          };
          const listed = await store.namespaces.listNamespaces(filter, page.value);
          const body = await renderNamespaces(config, user, listed.items);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/namespaces/:id",
      auth: AUTH,
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const namespace = typeof params.id === "number" ? await store.namespaces.findById(params.id) : await store.namespaces.findByFullPath(params.id);
          if (namespace === null || !(await canSee(user, namespace))) return err(errors.notFound("Namespace"));
          const [body] = await renderNamespaces(config, user, [namespace]);
          return ok({ body });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/namespaces/:id/exists",
      summary: "Check whether a namespace path exists",
      auth: AUTH,
      schema: z.object({ id: p.string(), parent_id: p.int().optional() }),
      handler: ({ params }) =>
        respond(async () => {
          // Reference: only namespaces directly under `parent_id` (top-level ones without it) count,
          // compared case-insensitively; a taken path gets the first free `<path><n>` there.
          // An id no record can have (0, negative, beyond the id columns) names no parent: nothing is asked.
          const parent = params.parent_id === undefined || !isRecordId(params.parent_id) ? null : await store.namespaces.findById(params.parent_id);
          if (params.parent_id !== undefined && parent === null) return ok({ body: { exists: false, suggests: [] } });
          const prefix = parent === null ? "" : `${parent.fullPath}/`;
          const taken = async (path: string) => !path.includes("/") && path !== "" && (await store.namespaces.findByFullPath(prefix + path)) !== null;
          if (!(await taken(params.id))) return ok({ body: { exists: false, suggests: [] } });
          return ok({ body: { exists: true, suggests: [await pathSuggestion(params.id, taken)] } });
        }),
    }),
  ];

  /** Reference `read_namespace_via_membership`: administrators, the owner, members of the group or an ancestor. */
  async function canSee(user: User, namespace: Namespace): Promise<boolean> {
    if (user.admin) return true;
    return (await store.members.namespaceAccessLevel(user.id, namespace.id, clock.now())) > 0;
  }
}
