/**
 * `GET /events`, `GET /users/:id/events`, `GET /projects/:id/events` (spec "Events", reference §2).
 * Scopes: the user feeds also take `read_user` (GET/HEAD); the project feed only `api` / `read_api`.
 * Offset pagination only (keyset → 405, as for every resource outside the spec's keyset table).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { defineRoute, listHeaders, PAGINATION_PARAMS, READ_USER, readPage, respond, tagRoutes } from "../../http/route-kit.js";
import type { User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import type { HttpRequest, RouteResult } from "../../http/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "../../ports/pagination.js";
import { eventEntity, mentionedUserIds } from "../entity.js";
import type { EventQuery } from "../feeds.js";
import type { EventsService } from "../service.js";
import { EVENT_ACTIONS, TARGET_TYPE_FILTERS, type Event, type TargetTypeFilter } from "../types.js";

/** What the event routes are built from. */
export interface EventRouteDeps {
  config: ForgekitConfig;
  services: { events: EventsService };
}

const FILTERS = {
  ...PAGINATION_PARAMS,
  action: p.enum(EVENT_ACTIONS).optional(),
  target_type: p.enum(Object.keys(TARGET_TYPE_FILTERS) as TargetTypeFilter[]).optional(),
  before: p.date().optional(),
  after: p.date().optional(),
  sort: p.enum(["asc", "desc"]).optional(),
};

type Filters = { action?: EventQuery["action"]; target_type?: TargetTypeFilter; before?: string; after?: string; sort?: "asc" | "desc" };

function query(params: Filters): EventQuery {
  return {
    ...(params.action === undefined ? {} : { action: params.action }),
    ...(params.target_type === undefined ? {} : { targetType: params.target_type }),
    ...(params.before === undefined ? {} : { before: params.before }),
    ...(params.after === undefined ? {} : { after: params.after }),
    ...(params.sort === undefined ? {} : { sort: params.sort }),
  };
}

/** Builds the event routes. */
export function eventRoutes({ config, services }: EventRouteDeps): AnyRoute[] {
  const { store, baseUrl } = config;
  const { events } = services;

  /** Reads the page, runs the feed, renders the events with their authors and the pagination headers. */
  const feed = (request: HttpRequest, raw: Parameters<typeof readPage>[0], projectList: boolean, run: (page: OffsetPageRequest) => PromiseLike<Result<OffsetPageResult<Event>, ForgekitError>>) =>
    respond(async (): Promise<Result<RouteResult, ForgekitError>> => {
      const read = readPage(raw, null);
      if (read.isErr()) return err(read.error);
      const page = read.value;
      if (page.kind !== "offset") return err(errors.internal(new Error("keyset page without keyset support")));
      const listed = await run(page);
      if (listed.isErr()) return err(listed.error);
      const result = listed.value;
      const users = new Map<number, User>((await store.users.findByIds(mentionedUserIds(result.items))).map((u) => [u.id, u]));
      const body = result.items.map((event) => eventEntity(event, { baseUrl, users, projectList }));
      return ok({ body, headers: listHeaders(baseUrl, request, page, result) });
    });

  return tagRoutes("Events", [
    defineRoute({
      method: "GET",
      path: "/events",
      response: { entity: "Event", list: true },
      auth: { mode: "required", extraScopes: READ_USER },
      schema: z.object({ ...FILTERS, scope: p.string().optional() }),
      handler: ({ identity, params, request }) =>
        feed(request, params, false, async (page) => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          return events.own(user, { ...query(params), ...(params.scope === undefined ? {} : { scope: params.scope }) }, page);
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/users/:id/events",
      response: { entity: "Event", list: true },
      auth: { mode: "optional", extraScopes: READ_USER },
      schema: z.object({ ...FILTERS, id: p.id() }),
      handler: ({ identity, params, request }) => feed(request, params, false, (page) => events.ofUser(identity.user, params.id, query(params), page)),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/events",
      response: { entity: "Event", list: true },
      auth: { mode: "optional" },
      schema: z.object({ ...FILTERS, id: p.id() }),
      handler: ({ identity, params, request }) => feed(request, params, true, (page) => events.ofProject(identity.user, params.id, query(params), page)),
    }),
  ]);
}
