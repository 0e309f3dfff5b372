/**
 * `GET /projects/:id/milestones/:milestone_id/merge_requests` (reference
 * `lib/api/milestone_responses.rb` `milestone_issuables_for`): the project's merge requests that
 * carry the milestone (`milestone_id` on create and update), newest first, as `MergeRequestBasic`,
 * paginated. 404 for a project whose merge requests the caller may not read and for a milestone of
 * another project.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params } from "../http/types.js";
import { readable, READ } from "./route-helpers.js";
import { renderMergeRequests } from "./service.js";

const raw = z.unknown().optional();

/** Builds the milestone's merge request list. */
export function milestoneMergeRequestRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  return tagRoutes("Milestones", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/milestones/:milestone_id/merge_requests",
      summary: "List merge requests of a milestone",
      auth: READ,
      schema: z.object({ milestone_id: p.recordId(), page: raw, per_page: raw, pagination: raw }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const milestone = await store.activity.milestones.findById(params.milestone_id);
          if (milestone === null || milestone.projectId !== o.value.project.id) return err(errors.notFound("Milestone"));
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const result = await store.reviews.listMergeRequests({ projectIds: [o.value.project.id], milestone: { id: milestone.id }, orderBy: "created_at", sort: "desc" }, page.value);
          const body = await renderMergeRequests(config, o.value.project, o.value.repo, result.items, null);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
  ]);
}
