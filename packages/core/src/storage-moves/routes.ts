/**
 * The storage-move routes (spec "Repository storage moves"; reference §7.1), for `{kind}` =
 * project, snippet and group (group moves: premium tier, access/tier.ts):
 *
 * - `GET|POST /{kind}_repository_storage_moves`, `GET /{kind}_repository_storage_moves/:id`
 * - `GET|POST /{kinds}/:id/repository_storage_moves`, `GET /{kinds}/:id/repository_storage_moves/:move_id`
 *
 * Every route is for administrators (`authenticated_as_admin!`: 401 anonymous, 403 others), checked
 * before the parameters as Grape's `before` block does; then the container (404), then the tier.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { requireFeature } from "../access/tier.js";
import { requireAdmin } from "../accounts/routes/impersonation-tokens.js";
import { defineRoute, listHeaders, PAGINATION_PARAMS, respond } from "../accounts/routes/kit.js";
import type { ProjectsService } from "../accounts/projects.js";
import type { GroupsService } from "../accounts/groups.js";
import type { SnippetsService } from "../activity/snippets.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { p } from "../http/params.js";
import type { AnyRoute } from "../http/router.js";
import type { Identity } from "../auth/identity.js";
import type { StorageMoveKind } from "../ports/storage-moves-store.js";
import { moveRenderer } from "./entities.js";
import type { StorageMovesService } from "./service.js";

export interface StorageMoveRouteDeps {
  config: ForgekitConfig;
  storageMoves: StorageMovesService;
  projects: ProjectsService;
  snippets: SnippetsService;
  groups: GroupsService;
}

const AUTH = { mode: "optional" as const };
/** Plural path segment per kind. */
const PLURAL: Readonly<Record<StorageMoveKind, string>> = { project: "projects", snippet: "snippets", group: "groups" };
/** The OpenAPI entity of a move of each kind (with its container). */
const ENTITY = { project: "ProjectRepositoryStorageMove", snippet: "SnippetRepositoryStorageMove", group: "GroupRepositoryStorageMove" } as const;

/** Builds the routes of every kind. */
export function storageMoveRoutes(deps: StorageMoveRouteDeps): AnyRoute[] {
  return (["project", "snippet", "group"] as const).flatMap((kind) => routesOf(deps, kind));
}

function routesOf(deps: StorageMoveRouteDeps, kind: StorageMoveKind): AnyRoute[] {
  const { config, storageMoves } = deps;
  const { baseUrl, store, tier } = config;
  const render = () => moveRenderer(store, baseUrl);

  /** Administrator, then (groups) the tier. */
  const admitted = (identity: Identity): Result<void, ForgekitError> => {
    const admin = requireAdmin(identity);
    if (admin.isErr()) return err(admin.error);
    return kind === "group" ? requireFeature(tier, "groupStorageMoves") : ok(undefined);
  };

  /** The container named by `:id` (projects and groups: id or full path; snippets: id). */
  const containerId = async (ref: number | string): Promise<Result<number, ForgekitError>> => {
    switch (kind) {
      case "project":
        return (await deps.projects.findByIdOrPath(ref)).map((project) => project.id);
      case "group":
        return (await deps.groups.findByIdOrPath(ref)).map((group) => group.id);
      case "snippet":
        return typeof ref === "number" ? (await deps.snippets.find(ref)).map((snippet) => snippet.id) : err(errors.notFound("Snippet"));
    }
  };

  /** Admin, the container (404), then the tier (groups). */
  const admittedContainer = async (identity: Identity, ref: number | string): Promise<Result<number, ForgekitError>> => {
    const admin = requireAdmin(identity);
    if (admin.isErr()) return err(admin.error);
    const id = await containerId(ref);
    if (id.isErr()) return err(id.error);
    if (kind === "group") {
      const licensed = requireFeature(tier, "groupStorageMoves");
      if (licensed.isErr()) return err(licensed.error);
    }
    return ok(id.value);
  };

  const list = (path: string, schema: z.ZodObject, containerOf: ((params: Record<string, unknown>, identity: Identity) => Promise<Result<number | undefined, ForgekitError>>)) =>
    defineRoute({
      method: "GET",
      path,
      response: { entity: ENTITY[kind], list: true },
      auth: AUTH,
      schema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const container = await containerOf(params, identity);
          if (container.isErr()) return err(container.error);
          const page = offsetPage(params as Record<string, never>);
          if (page.isErr()) return err(page.error);
          const listed = await storageMoves.list(kind, { ...(container.value === undefined ? {} : { containerId: container.value }), page: page.value.page, perPage: page.value.perPage });
          if (listed.isErr()) return err(listed.error);
          const entity = render();
          const body = await Promise.all(listed.value.items.map(entity));
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed.value) });
        }),
    });

  const base = `/${kind}_repository_storage_moves`;
  const nested = `/${PLURAL[kind]}/:id/repository_storage_moves`;
  const moveId = z.object({ repository_storage_move_id: p.recordId() });
  return [
    list(base, z.object({ ...PAGINATION_PARAMS }), (_params, identity) => Promise.resolve(admitted(identity).map(() => undefined))),
    defineRoute({
      method: "GET",
      path: `${base}/:repository_storage_move_id`,
      response: { entity: ENTITY[kind] },
      auth: AUTH,
      schema: moveId,
      handler: ({ identity, params }) =>
        respond(async () => {
          const allowed = admitted(identity);
          if (allowed.isErr()) return err(allowed.error);
          const move = await storageMoves.find(kind, params.repository_storage_move_id);
          if (move.isErr()) return err(move.error);
          return ok({ body: await render()(move.value) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: AUTH,
      // Raw here, checked after the administrator check (Grape runs `before` ahead of validation).
      schema: z.object({ source_storage_name: p.string().optional(), destination_storage_name: p.string().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const allowed = admitted(identity);
          if (allowed.isErr()) return err(allowed.error);
          if (params.source_storage_name === undefined) return err(errors.missingParam("source_storage_name"));
          const job = await storageMoves.scheduleBulk(kind, {
            source: params.source_storage_name,
            ...(params.destination_storage_name === undefined ? {} : { destination: params.destination_storage_name }),
          });
          if (job.isErr()) return err(job.error);
          // Reference `accepted!`.
          return ok({ status: 202, body: { message: "202 Accepted" } });
        }),
    }),
    list(nested, z.object({ ...PAGINATION_PARAMS, id: p.id() }), async (params, identity) => admittedContainer(identity, params["id"] as number | string)),
    defineRoute({
      method: "GET",
      path: `${nested}/:repository_storage_move_id`,
      response: { entity: ENTITY[kind] },
      auth: AUTH,
      schema: z.object({ id: p.id(), repository_storage_move_id: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const container = await admittedContainer(identity, params.id);
          if (container.isErr()) return err(container.error);
          const move = await storageMoves.find(kind, params.repository_storage_move_id);
          if (move.isErr()) return err(move.error);
          // A move of another container is not found under this one.
          if (move.value.containerId !== container.value) return err(errors.recordNotFound());
          return ok({ body: await render()(move.value) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: nested,
      response: { entity: ENTITY[kind] },
      auth: AUTH,
      schema: z.object({ id: p.id(), destination_storage_name: p.string().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const container = await admittedContainer(identity, params.id);
          if (container.isErr()) return err(container.error);
          const move = await storageMoves.schedule(kind, container.value, params.destination_storage_name === undefined ? {} : { destination: params.destination_storage_name });
          if (move.isErr()) return err(move.error);
          return ok({ status: 201, body: await render()(move.value) });
        }),
    }),
  ];
}
