/**
 * Group writes and group sublists (reference `lib/api/groups.rb`): `POST /groups` (a top-level
 * group by any user who is not a bot; a subgroup by a Maintainer of the parent — the
 * `subgroup_creation_level` the entity shows), `PUT /groups/:id` and `DELETE /groups/:id` (Owner),
 * `GET /groups/:id/subgroups`, `/descendant_groups` and `/projects`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { viewerOf } from "../../access/permissions.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { Params, RouteResult } from "../../http/types.js";
import type { GroupListFilter, ProjectListFilter, Store } from "../../ports/store.js";
import { groupEntity } from "../entities/groups.js";
import { namespaceLoader } from "../entities/namespaces.js";
import { basicProject, projectEntity } from "../entities/projects.js";
import { isGroup } from "../groups.js";
import { AccessLevel, type Group, type User } from "../types.js";
import { MEMBER_LEVELS } from "../validation.js";
import { seenGroup } from "./containers.js";
import type { ForgekitConfig } from "../../config.js";
import { factsOf, projectFacts } from "./project-facts.js";
import { defineRoute, listHeaders, offsetOnly, PAGINATION_PARAMS, readPage, respond, type AccountsRouteDeps } from "./kit.js";

const LEVELS = MEMBER_LEVELS.map(String) as readonly string[] as readonly ("10" | "20" | "30" | "40" | "50")[];
const VISIBILITY = p.enum(["private", "internal", "public"]);
const AUTH = { mode: "required" as const };
const ACCEPTED: RouteResult = { status: 202, body: { message: "202 Accepted" } };

const groupListSchema = z.object({
  ...PAGINATION_PARAMS,
  id: p.id(),
  search: p.string().optional(),
  owned: p.bool().optional(),
  min_access_level: p.enum(LEVELS).optional(),
  all_available: p.bool().optional(),
  order_by: p.enum(["name", "path", "id", "similarity"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
});

const groupProjectsSchema = z.object({
  ...PAGINATION_PARAMS,
  id: p.id(),
  include_subgroups: p.bool().optional(),
  visibility: VISIBILITY.optional(),
  search: p.string().optional(),
  order_by: p.enum(["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  simple: p.bool().optional(),
  owned: p.bool().optional(),
  min_access_level: p.enum(LEVELS).optional(),
  archived: p.bool().optional(),
  with_shared: p.bool().optional(),
});

/** Builds the group write and sublist routes. */
export function groupWriteRoutes({ config, services }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  /** Reference `GroupDetail`: the group with the projects the caller may see. */
  async function detail(group: Group, user: User | null): Promise<Result<RouteResult["body"], ForgekitError>> {
    const loader = namespaceLoader(store);
    const info = await loader.load(group.id);
    if (info === null) return err(errors.notFound("Group"));
    const body: Record<string, unknown> = groupEntity(group, info, baseUrl);
    const projects = await store.projects.list({ viewer: viewerOf(user), now: clock.now(), namespaceId: group.id, orderBy: "id", sort: "asc" }, { kind: "offset", page: 1, perPage: 100 });
    const facts = await projectFacts(config, projects.items, user);
    body["projects"] = facts.projects.map((project) => projectEntity({ project, namespace: info, baseUrl, admin: user?.admin === true, ...factsOf(facts, project) }));
    body["shared_projects"] = [];
    return ok(body);
  }

  /** A page of groups rendered as the reference `Group` entity. */
  async function groupPage(filter: GroupListFilter, params: Params, request: Parameters<typeof listHeaders>[1]): Promise<Result<RouteResult, ForgekitError>> {
    const page = offsetOnly(readPage(params, null));
    if (page.isErr()) return err(page.error);
    const listed = await store.namespaces.listGroups(filter, page.value);
    const loader = namespaceLoader(store);
    const body = [];
    for (const group of listed.items) {
      const info = await loader.load(group.id);
      if (info !== null && isGroup(group)) body.push(groupEntity(group, info, baseUrl));
    }
    return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
  }

  const sublist = (path: string, scope: (group: Group) => Partial<GroupListFilter>) =>
    defineRoute({
      method: "GET",
      path,
      auth: { mode: "optional" },
      schema: groupListSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const now = clock.now();
          const seen = await seenGroup(store, identity.user, params.id, now);
          if (seen.isErr()) return err(seen.error);
          const orderBy = params.order_by === undefined || params.order_by === "similarity" ? "name" : params.order_by;
          const filter: GroupListFilter = {
            viewer: viewerOf(identity.user),
            now,
            ...scope(seen.value.group),
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.owned === true ? { owned: true } : {}),
            ...(params.min_access_level !== undefined ? { minAccessLevel: Number(params.min_access_level) as AccessLevel } : {}),
            orderBy,
            sort: params.sort ?? "asc",
          };
          return groupPage(filter, params, request);
        }),
    });

  return [
    defineRoute({
      method: "POST",
      path: "/groups",
      auth: AUTH,
      schema: z.object({
        name: p.string(),
        path: p.string(),
        parent_id: p.recordId().optional(),
        visibility: VISIBILITY.optional(),
        description: p.string({ allowBlank: true }).optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          // Bots own no namespace and create none (reference: `can_create_group` is false for bots).
          if (user.bot !== null) return err(errors.forbidden());
          if (params.parent_id !== undefined) {
            const parent = await seenGroup(store, user, params.parent_id, clock.now(), AccessLevel.Maintainer);
            if (parent.isErr()) return err(parent.error);
          }
          const created = await services.groups.create({
            name: params.name,
            path: params.path,
            parentId: params.parent_id ?? null,
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
            ...(params.description !== undefined ? { description: params.description } : {}),
            ownerId: user.id,
          });
          if (created.isErr()) return err(created.error);
          return (await detail(created.value, user)).map((body) => ({ status: 201, body }));
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/groups/:id",
      auth: AUTH,
      schema: z.object({
        id: p.id(),
        name: p.string().optional(),
        path: p.string().optional(),
        description: p.string({ allowBlank: true }).optional(),
        visibility: VISIBILITY.optional(),
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const seen = await seenGroup(store, identity.user, params.id, clock.now(), AccessLevel.Owner);
          if (seen.isErr()) return err(seen.error);
          const updated = await services.groups.update(seen.value.group.id, {
            ...(params.name !== undefined ? { name: params.name } : {}),
            ...(params.path !== undefined ? { path: params.path } : {}),
            ...(params.description !== undefined ? { description: params.description } : {}),
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
          });
          if (updated.isErr()) return err(updated.error);
          return (await detail(updated.value, identity.user)).map((body) => ({ body }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/groups/:id",
      auth: AUTH,
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const seen = await seenGroup(store, identity.user, params.id, clock.now(), AccessLevel.Owner);
          if (seen.isErr()) return err(seen.error);
          return (await services.groups.remove(seen.value.group.id)).map(() => ACCEPTED);
        }),
    }),
    sublist("/groups/:id/subgroups", (group) => ({ parentId: group.id })),
    sublist("/groups/:id/descendant_groups", (group) => ({ ancestorId: group.id })),
    defineRoute({
      method: "GET",
      path: "/groups/:id/projects",
      auth: { mode: "optional" },
      schema: groupProjectsSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const now = clock.now();
          const user = identity.user;
          const seen = await seenGroup(store, user, params.id, now);
          if (seen.isErr()) return err(seen.error);
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          // An archived-only list is empty: forgekit has no archived projects.
          if (params.archived === true) return ok({ body: [], headers: listHeaders(baseUrl, request, page.value, { items: [], hasNext: false, total: 0 }) });
          const orderBy = params.order_by === undefined || params.order_by === "similarity" ? "created_at" : params.order_by;
          const filter: ProjectListFilter = {
            viewer: viewerOf(user),
            now,
            namespaceId: seen.value.group.id,
            ...(params.include_subgroups === true ? { includeSubgroups: true } : {}),
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.min_access_level !== undefined ? { minAccessLevel: Number(params.min_access_level) as AccessLevel } : {}),
            // Reference `owned` on a group: projects the caller owns there (Owner), which a group's projects reach only through membership.
            ...(params.owned === true ? { minAccessLevel: AccessLevel.Owner } : {}),
            orderBy,
            sort: params.sort ?? "desc",
          };
          return projectPage(config, filter, page.value, { baseUrl, admin: user?.admin === true, simple: params.simple === true, request, viewer: user });
        }),
    }),
  ];
}

/** A page of projects rendered as the reference `Project` (or `BasicProjectDetails` with `simple`). */
export async function projectPage(
  config: ForgekitConfig,
  filter: ProjectListFilter,
  page: Parameters<Store["projects"]["list"]>[1] & { kind: "offset" },
  view: { baseUrl: string; admin: boolean; simple: boolean; request: Parameters<typeof listHeaders>[1]; viewer: User | null },
): Promise<Result<RouteResult, ForgekitError>> {
  const { store } = config;
  const listed = await store.projects.list(filter, page);
  const loader = namespaceLoader(store);
  const body = [];
  const facts = await projectFacts(config, listed.items, view.viewer);
  for (const project of facts.projects) {
    const namespace = await loader.load(project.namespaceId);
    if (namespace === null) continue;
    const entity = { project, namespace, baseUrl: view.baseUrl, admin: view.admin, ...factsOf(facts, project) };
    body.push(view.simple ? basicProject(entity) : projectEntity(entity));
  }
  return ok({ body, headers: listHeaders(view.baseUrl, view.request, page, listed) });
}
