/** `GET /projects` and `GET /projects/:id` (reference `lib/api/projects.rb`). */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { viewerOf, visibleProject } from "../../access/permissions.js";
import { errors } from "../../errors.js";
import type { KeysetAllowed } from "../../http/pagination-keyset.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { ProjectListFilter } from "../../ports/store.js";
import { namespaceLoader } from "../entities/namespaces.js";
import { accessEntry, basicProject, projectEntity } from "../entities/projects.js";
import { AccessLevel, type Project } from "../types.js";
import { MEMBER_LEVELS } from "../validation.js";
import { factsOf, projectFacts } from "./project-facts.js";
import { prereadFor, projectPreread, renderPreread } from "./project-preread.js";
import { defineRoute, listHeaders, PAGINATION_PARAMS, respond, listWithCursor, readPage, type AccountsRouteDeps } from "./kit.js";

/** Projects: keyset by id, either direction (spec "Pagination" table); python-gitlab omits `sort`. */
export const PROJECTS_KEYSET: KeysetAllowed = { orderBy: "id", sort: ["asc", "desc"], cursor: "id", defaults: { sort: "desc" } };

const ORDER_BY = ["id", "name", "path", "created_at", "updated_at", "last_activity_at"] as const;
const LEVELS = MEMBER_LEVELS.map(String) as readonly string[] as readonly ("10" | "20" | "30" | "40" | "50")[];

const listSchema = z.object({
  ...PAGINATION_PARAMS,
  search: p.string().optional(),
  membership: p.bool().optional(),
  owned: p.bool().optional(),
  visibility: p.enum(["private", "internal", "public"]).optional(),
  order_by: p.enum(ORDER_BY).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  simple: p.bool().optional(),
  min_access_level: p.enum(LEVELS).optional(),
  repository_storage: p.string().optional(),
});

/** Builds the project routes. */
export function projectRoutes({ config }: AccountsRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  return [
    defineRoute({
      method: "GET",
      path: "/projects",
      auth: { mode: "optional" },
      schema: listSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const read = readPage(params, PROJECTS_KEYSET);
          if (read.isErr()) return err(read.error);
          const page = read.value;
          const keyset = page.kind === "keyset" ? page : null;
          const user = identity.user;
          const admin = user?.admin === true;
          const filter: ProjectListFilter = {
            viewer: viewerOf(user),
            now: clock.now(),
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.membership === true ? { membership: true } : {}),
            ...(params.owned === true ? { owned: true } : {}),
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
            ...(params.min_access_level !== undefined ? { minAccessLevel: Number(params.min_access_level) as AccessLevel } : {}),
            // Reference §7.4: administrators only; silently ignored for everyone else.
            ...(admin && params.repository_storage !== undefined ? { repositoryStorage: params.repository_storage } : {}),
            orderBy: keyset ? "id" : (params.order_by ?? "created_at"),
            sort: keyset ? keyset.sort : (params.sort ?? "desc"),
          };
          const listed = await listWithCursor(keyset, () => store.projects.list(filter, page));
          if (listed.isErr()) return err(listed.error);
          const result = listed.value;
          const loader = namespaceLoader(store);
          const body = [];
          const facts = await projectFacts(config, result.items, user);
          for (const project of facts.projects) {
            const namespace = await loader.load(project.namespaceId);
            if (!namespace) continue;
            const view = { project, namespace, baseUrl, admin, ...factsOf(facts, project) };
            body.push(params.simple === true ? basicProject(view) : projectEntity(view));
          }
          return ok({ body, headers: listHeaders(baseUrl, request, page, result) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id",
      auth: { mode: "optional", withToken: projectPreread(config) },
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          // Read with the access token, in the same lookup (project-preread.ts).
          const preread = prereadFor(identity.preread, params.id, user);
          if (preread !== null && user !== null) {
            const rendered = renderPreread(preread, user, baseUrl);
            if (rendered !== null) return rendered;
          }
          const now = clock.now();
          const found = await findProject(params.id);
          const visible = await visibleProject(store, user, found, now);
          if (visible.isErr()) return err(visible.error);
          const namespace = await namespaceLoader(store).load(visible.value.namespaceId);
          if (!namespace) return err(errors.notFound("Project"));
          const groupId = namespace.namespace.kind === "group" ? namespace.namespace.id : null;
          const known = visible.value;
          // A signed-in viewer on a store that reads the levels, open issues and import status in one
          // statement (the project's repository facts already known): one round trip for all three.
          if (user && store.members.projectReadFacts !== undefined && known.repositoryEmpty !== null && known.readmePath !== null) {
            const read = await store.members.projectReadFacts(user.id, known.id, groupId, now);
            const access = user.admin ? AccessLevel.Owner : Math.max(read.project, read.group);
            const body = projectEntity({ project: known, namespace, baseUrl, admin: user.admin, openIssues: read.openIssues, importStatus: read.importStatus ?? "none", access });
            body["permissions"] = { project_access: accessEntry(read.project), group_access: accessEntry(read.group) };
            return ok({ body });
          }
          // The direct membership and the group level in one lookup.
          const levels = user
            ? await store.members.projectPermissionLevels(user.id, visible.value.id, groupId, now)
            : { project: 0, group: 0 };
          const access = user?.admin === true ? AccessLevel.Owner : Math.max(levels.project, levels.group);
          const facts = await projectFacts(config, [visible.value], user, new Map([[visible.value.id, access]]));
          const project = facts.projects[0] ?? visible.value;
          const body = projectEntity({ project, namespace, baseUrl, admin: user?.admin === true, ...factsOf(facts, project) });
          body["permissions"] = { project_access: accessEntry(levels.project), group_access: accessEntry(levels.group) };
          return ok({ body });
        }),
    }),
  ];

  /** Reference `find_project`: digits → id; a value with `/` → full path; anything else → none. */
  async function findProject(id: number | string): Promise<Project | null> {
    if (typeof id === "number") return store.projects.findById(id);
    return id.includes("/") ? store.projects.findByFullPath(id) : null;
  }
}
