/**
 * `GET /groups/:id/iterations` (spec "Group iterations (premium tier)"; reference
 * `ee/lib/api/iterations.rb`). Order of checks as the reference: the group must exist and be
 * visible (404 otherwise, anonymous callers included), then the tier (403, access/tier.ts), then
 * the filters. Iterations of the ancestors the caller can read are included unless
 * `include_ancestors=false`.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { requireFeature } from "../../access/tier.js";
import { defineRoute, listHeaders, PAGINATION_PARAMS, respond } from "../../http/route-kit.js";
import type { ForgekitConfig } from "../../config.js";
import { offsetPage } from "../../http/pagination-offset.js";
import { p } from "../../http/params.js";
import type { AnyRoute } from "../../http/router.js";
import { iterationEntity } from "../entity.js";
import type { IterationListQuery, IterationsService } from "../service.js";
import { ITERATION_STATE_FILTERS } from "../types.js";

/** What the iterations routes are built from. */
export interface IterationRouteDeps {
  config: ForgekitConfig;
  iterations: IterationsService;
}

const listSchema = z.object({
  ...PAGINATION_PARAMS,
  id: p.id(),
  state: p.enum(ITERATION_STATE_FILTERS).optional(),
  search: p.string().optional(),
  include_ancestors: p.bool().optional(),
  updated_before: p.datetime().optional(),
  updated_after: p.datetime().optional(),
});

/** Builds the group iterations route. */
export function groupIterationRoutes({ config, iterations }: IterationRouteDeps): AnyRoute[] {
  const { baseUrl, tier } = config;
  return [
    defineRoute({
      method: "GET",
      path: "/groups/:id/iterations",
      response: { entity: "Iteration", list: true },
      auth: { mode: "optional" },
      schema: listSchema,
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const groups = await iterations.groupsFor(params.id, { viewer: identity.user, includeAncestors: params.include_ancestors ?? true });
          if (groups.isErr()) return err(groups.error);
          const licensed = requireFeature(tier, "groupIterations");
          if (licensed.isErr()) return err(licensed.error);
          const page = offsetPage(params);
          if (page.isErr()) return err(page.error);
          const query: IterationListQuery = {};
          if (params.state !== undefined) query.state = params.state;
          if (params.search !== undefined) query.search = params.search;
          if (params.updated_before !== undefined) query.updatedBefore = new Date(params.updated_before);
          if (params.updated_after !== undefined) query.updatedAfter = new Date(params.updated_after);
          const listed = await iterations.list(
            groups.value.map((g) => g.id),
            query,
            page.value,
          );
          if (listed.isErr()) return err(listed.error);
          const byId = new Map(groups.value.map((g) => [g.id, g]));
          const body = listed.value.items.flatMap((iteration) => {
            const group = byId.get(iteration.groupId);
            return group === undefined ? [] : [iterationEntity(iteration, iterations.stateOf(iteration), group, baseUrl)];
          });
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed.value) });
        }),
    }),
  ];
}
