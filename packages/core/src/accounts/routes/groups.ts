/** `GET /groups` and `GET /groups/:id` (reference `lib/api/groups.rb`, `GroupsFinder`). */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { viewerOf, visibleGroup } from "../../access/permissions.js";
import { errors } from "../../errors.js";
import type { KeysetAllowed } from "../../http/pagination-keyset.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { GroupListFilter } from "../../ports/store.js";
import { groupEntity } from "../entities/groups.js";
import { namespaceLoader } from "../entities/namespaces.js";
import { projectEntity } from "../entities/projects.js";
import { isGroup } from "../groups.js";
import { AccessLevel, type Group } from "../types.js";
import { MEMBER_LEVELS } from "../validation.js";
import { factsOf, projectFacts } from "./project-facts.js";
import { defineRoute, listHeaders, listWithCursor, PAGINATION_PARAMS, readPage, respond, type AccountsRouteDeps } from "./kit.js";

/** Groups: keyset by name ascending, open to anonymous callers (spec "Pagination" table). */
export const GROUPS_KEYSET: KeysetAllowed = { orderBy: "name", sort: ["asc"], cursor: "opaque", defaults: { orderBy: "name", sort: "asc" } };

const LEVELS = MEMBER_LEVELS.map(String) as readonly string[] as readonly ("10" | "20" | "30" | "40" | "50")[];

const listSchema = z.object({
  ...PAGINATION_PARAMS,
  search: p.string().optional(),
  owned: p.bool().optional(),
  min_access_level: p.enum(LEVELS).optional(),
  top_level_only: p.bool().optional(),
  all_available: p.bool().optional(),
  order_by: p.enum(["name", "path", "id", "similarity"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
});

/** Builds the group routes. */
export function groupRoutes({ config }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  return [
    defineRoute({
      method: "GET",
      path: "/groups",
      auth: { mode: "optional" },
      schema: listSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const read = readPage(params, GROUPS_KEYSET);
          if (read.isErr()) return err(read.error);
          const page = read.value;
          const keyset = page.kind === "keyset" ? page : null;
          const user = identity.user;
          // Reference GroupsFinder: a signed-in caller sees only the groups they belong to unless
          // `all_available` (default: true for administrators, false for everyone else).
          const membersOnly = user !== null && params.owned !== true && !(params.all_available ?? user.admin);
          const minAccess = params.min_access_level !== undefined ? (Number(params.min_access_level) as AccessLevel) : membersOnly ? AccessLevel.Guest : undefined;
          const orderBy = params.order_by === undefined || params.order_by === "similarity" ? "name" : params.order_by;
          const filter: GroupListFilter = {
            viewer: viewerOf(user),
            now: clock.now(),
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.owned === true ? { owned: true } : {}),
            ...(minAccess !== undefined ? { minAccessLevel: minAccess } : {}),
            ...(params.top_level_only === true ? { topLevelOnly: true } : {}),
            orderBy: keyset ? "name" : orderBy,
            sort: keyset ? "asc" : (params.sort ?? "asc"),
          };
          const listed = await listWithCursor(keyset, () => store.namespaces.listGroups(filter, page));
          if (listed.isErr()) return err(listed.error);
          const loader = namespaceLoader(store);
          const body = [];
          for (const group of listed.value.items) {
            const info = await loader.load(group.id);
            if (info && isGroup(group)) body.push(groupEntity(group, info, baseUrl));
          }
          return ok({ body, headers: listHeaders(baseUrl, request, page, listed.value) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/groups/:id",
      auth: { mode: "optional" },
      schema: z.object({ id: p.id(), with_projects: p.bool().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          const now = clock.now();
          const found = await findGroup(params.id);
          const visible = await visibleGroup(store, user, found, now);
          if (visible.isErr()) return err(visible.error);
          const group = visible.value;
          const loader = namespaceLoader(store);
          const info = await loader.load(group.id);
          if (!info) return err(errors.notFound("Group"));
          const body: Record<string, unknown> = groupEntity(group, info, baseUrl);
          if (params.with_projects !== false) {
            const projects = await store.projects.list({ viewer: viewerOf(user), now, namespaceId: group.id, orderBy: "id", sort: "asc" }, { kind: "offset", page: 1, perPage: 100 });
            const facts = await projectFacts(config, projects.items, user);
            body["projects"] = facts.projects.map((project) => projectEntity({ project, namespace: info, baseUrl, admin: user?.admin === true, ...factsOf(facts, project) }));
          }
          body["shared_projects"] = [];
          return ok({ body });
        }),
    }),
  ];

  /** Reference `find_group`: digits → id, anything else → full path. */
  async function findGroup(id: number | string): Promise<Group | null> {
    const namespace = typeof id === "number" ? await store.namespaces.findById(id) : await store.namespaces.findByFullPath(id);
    return isGroup(namespace) ? namespace : null;
  }
}
