/**
 * Project writes (reference `lib/api/projects.rb`): `POST /projects` (in the caller's namespace or
 * a group where the caller is a Developer — the `project_creation_level` the group entity shows),
 * `POST /projects/user/:user_id` (administrators, for another user), `PUT /projects/:id`
 * (Maintainer; visibility Owner; `repository_storage` administrators, scheduling a storage move),
 * `DELETE /projects/:id` (Owner; 202) and `GET /users/:id/projects`.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { viewerOf } from "../../access/permissions.js";
import { factsOf, projectFacts } from "./project-facts.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { RouteResult } from "../../http/types.js";
import type { ProjectListFilter } from "../../ports/store.js";
import type { StorageMovesService } from "../../storage-moves/service.js";
import { namespaceLoader } from "../entities/namespaces.js";
import { projectEntity } from "../entities/projects.js";
import { AccessLevel, type Namespace, type Project, type User } from "../types.js";
import { MEMBER_LEVELS } from "../validation.js";
import { findGroupRef, seenGroup, seenProject } from "./containers.js";
import { projectPage } from "./group-writes.js";
import { noneGiven } from "../../http/route-kit.js";
import { FEATURE_PARAMS, featuresFromParams, MERGE_CHECK_PARAMS, mergeChecksFromParams } from "./project-feature-params.js";
import { defineRoute, offsetOnly, PAGINATION_PARAMS, readPage, respond, type AccountsRouteDeps } from "./kit.js";

const LEVELS = MEMBER_LEVELS.map(String) as readonly string[] as readonly ("10" | "20" | "30" | "40" | "50")[];
const VISIBILITY = p.enum(["private", "internal", "public"]);
const AUTH = { mode: "required" as const };
/** `{ [key]: value }` when the value is given, else nothing (for spreading into an input). */
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

const createParams = {
  name: p.string().optional(),
  path: p.string().optional(),
  namespace_id: p.id().optional(),
  description: p.string().optional(),
  visibility: VISIBILITY.optional(),
  default_branch: p.string().optional(),
  initialize_with_readme: p.bool().optional(),
  ...FEATURE_PARAMS,
        ...MERGE_CHECK_PARAMS,
};

/** Builds the project write routes; `storageMoves` lets administrators move a project with `repository_storage`. */
export function projectWriteRoutes({ config, services }: AccountsRouteDeps, storageMoves?: StorageMovesService): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  async function render(stored: Project, user: User | null, status?: number): Promise<Result<RouteResult, ForgekitError>> {
    const facts = await projectFacts(config, [stored], user);
    const project = facts.projects[0] ?? stored;
    const namespace = await namespaceLoader(store).load(project.namespaceId);
    if (namespace === null) return err(errors.notFound("Project"));
    const body = projectEntity({ project, namespace, baseUrl, admin: user?.admin === true, ...factsOf(facts, project) });
    return ok(status === undefined ? { body } : { status, body });
  }

  /** Where `owner` (acting as `actor`) may create a project: their own namespace, or a group where the actor is a Developer. */
  async function targetNamespace(actor: User, owner: User, ref: number | string | undefined): Promise<Result<Namespace, ForgekitError>> {
    const now = clock.now();
    if (ref === undefined) {
      const own = owner.namespaceId === null ? null : await store.namespaces.findById(owner.namespaceId);
      // Bots own no namespace (reference: bot users cannot create projects).
      return own === null ? err(errors.forbidden()) : ok(own);
    }
    const namespace = typeof ref === "number" ? await store.namespaces.findById(ref) : await store.namespaces.findByFullPath(ref);
    if (namespace === null) return err(errors.notFound("Namespace"));
    if (namespace.kind === "user") return namespace.ownerId === owner.id || actor.admin ? ok(namespace) : err(errors.notFound("Namespace"));
    const group = await findGroupRef(store, namespace.id);
    if (group === null) return err(errors.notFound("Namespace"));
    const seen = await seenGroup(store, actor, group.id, now);
    if (seen.isErr()) return err(errors.notFound("Namespace"));
    return seen.value.level >= AccessLevel.Developer ? ok(namespace) : err(errors.forbidden());
  }

  async function create(actor: User, owner: User, params: z.output<z.ZodObject<typeof createParams>>): Promise<Result<RouteResult, ForgekitError>> {
    const missing = noneGiven(params, ["name", "path"]);
    if (missing !== null) return err(missing);
    const namespace = await targetNamespace(actor, owner, params.namespace_id);
    if (namespace.isErr()) return err(namespace.error);
    const created = await services.projects.create({
      namespaceId: namespace.value.id,
      name: params.name ?? params.path ?? "",
      ...(params.path !== undefined ? { path: params.path } : {}),
      ...(params.description !== undefined ? { description: params.description } : {}),
      ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
      ...(params.default_branch !== undefined ? { defaultBranch: params.default_branch } : {}),
      ...(params.initialize_with_readme === true ? { initializeWithReadme: true } : {}),
      ...optional("features", featuresFromParams(params)),
      ...optional("mergeChecks", mergeChecksFromParams(params)),
      creatorId: owner.id,
    });
    if (created.isErr()) return err(created.error);
    return render(created.value, actor, 201);
  }

  return [
    defineRoute({
      method: "POST",
      path: "/projects",
      auth: AUTH,
      schema: z.object(createParams),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          return create(user, user, params);
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/user/:user_id",
      summary: "Create a project for a user",
      auth: AUTH,
      schema: z.object({ ...createParams, user_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const actor = identity.user;
          if (actor === null) return err(errors.unauthorized());
          if (!actor.admin) return err(errors.forbidden());
          const owner = await store.users.findById(params.user_id);
          if (owner === null) return err(errors.notFound("User"));
          return create(actor, owner, params);
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/projects/:id",
      auth: AUTH,
      schema: z.object({
        id: p.id(),
        name: p.string().optional(),
        description: p.string().optional(),
        visibility: VISIBILITY.optional(),
        default_branch: p.string().optional(),
        repository_storage: p.string().optional(),
        ...FEATURE_PARAMS,
        ...MERGE_CHECK_PARAMS,
      }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          const seen = await seenProject(store, user, params.id, clock.now(), AccessLevel.Maintainer);
          if (seen.isErr()) return err(seen.error);
          const { project, level } = seen.value;
          // Reference `authorize! :change_visibility_level` (Owner) and `:change_repository_storage` (administrators).
          if (params.visibility !== undefined && params.visibility !== project.visibility && level < AccessLevel.Owner) return err(errors.forbidden());
          const move = params.repository_storage !== undefined && params.repository_storage !== project.repositoryStorage;
          if (move && user?.admin !== true) return err(errors.forbidden());
          if (params.default_branch !== undefined && params.default_branch !== (project.defaultBranch ?? "main")) {
            return err(errors.validation({ default_branch: ["cannot be changed over the API: forgekit sets a project's default branch when it is created"] }));
          }
          const edited = await services.projects.edit(project.id, {
            ...(params.name !== undefined ? { name: params.name } : {}),
            ...(params.description !== undefined ? { description: params.description } : {}),
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
            ...optional("features", featuresFromParams(params)),
      ...optional("mergeChecks", mergeChecksFromParams(params)),
          });
          if (edited.isErr()) return err(edited.error);
          let result = edited.value;
          if (move && params.repository_storage !== undefined) {
            if (storageMoves === undefined) return err(errors.validation({ repository_storage: ["cannot be changed: this instance has no storage moves"] }));
            const scheduled = await storageMoves.schedule("project", project.id, { destination: params.repository_storage });
            if (scheduled.isErr()) return err(scheduled.error);
            result = (await store.projects.findById(project.id)) ?? result;
          }
          return render(result, user);
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id",
      auth: AUTH,
      schema: z.object({ id: p.id() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const seen = await seenProject(store, identity.user, params.id, clock.now(), AccessLevel.Owner);
          if (seen.isErr()) return err(seen.error);
          return (await services.projects.remove(seen.value.project.id)).map(() => ({ status: 202, body: { message: "202 Accepted" } }));
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/users/:id/projects",
      auth: { mode: "optional" },
      schema: z.object({
        ...PAGINATION_PARAMS,
        id: p.id(),
        search: p.string().optional(),
        visibility: VISIBILITY.optional(),
        order_by: p.enum(["id", "name", "path", "created_at", "updated_at", "last_activity_at", "similarity"]).optional(),
        sort: p.enum(["asc", "desc"]).optional(),
        simple: p.bool().optional(),
        owned: p.bool().optional(),
        membership: p.bool().optional(),
        min_access_level: p.enum(LEVELS).optional(),
        archived: p.bool().optional(),
      }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const found = await services.users.findByIdOrUsername(params.id);
          if (found.isErr()) return err(found.error);
          const owner = found.value;
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const user = identity.user;
          // A bot has no namespace, and forgekit has no archived projects: both lists are empty.
          const none = owner.namespaceId === null || params.archived === true;
          const orderBy = params.order_by === undefined || params.order_by === "similarity" ? "created_at" : params.order_by;
          const filter: ProjectListFilter = {
            viewer: viewerOf(user),
            now: clock.now(),
            namespaceId: owner.namespaceId ?? 0,
            ...(params.search !== undefined ? { search: params.search } : {}),
            ...(params.visibility !== undefined ? { visibility: params.visibility } : {}),
            ...(params.owned === true ? { owned: true } : {}),
            ...(params.membership === true ? { membership: true } : {}),
            ...(params.min_access_level !== undefined ? { minAccessLevel: Number(params.min_access_level) as AccessLevel } : {}),
            orderBy,
            sort: params.sort ?? "desc",
          };
          if (none) return projectPage(config, { ...filter, namespaceId: 0 }, page.value, { baseUrl, admin: user?.admin === true, simple: params.simple === true, request, viewer: user });
          return projectPage(config, filter, page.value, { baseUrl, admin: user?.admin === true, simple: params.simple === true, request, viewer: user });
        }),
    }),
  ];
}
