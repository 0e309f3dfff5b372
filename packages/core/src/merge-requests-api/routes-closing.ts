/**
 * `GET /projects/:id/merge_requests/:merge_request_iid/closes_issues` (reference
 * `lib/api/merge_requests.rb`, `visible_closing_issues_for(current_user)`): the issues the merge
 * request will close (or closed), paginated, as `Issue` entities — only those the caller may read.
 */
import { err } from "neverthrow";
import * as z from "zod";
import { renderIssues } from "../activity/routes/issue-views.js";
import type { ForgekitConfig } from "../config.js";
import { p } from "../http/params.js";
import { defineRoute, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params } from "../http/types.js";
import { pagedListOf } from "../repository-api/routes/kit.js";
import { mergeRequestClosingIssues } from "./closing.js";
import { findMr, readable, READ } from "./route-helpers.js";

const raw = z.unknown().optional();

/** Builds the closes_issues route. */
export function closingIssuesRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  return tagRoutes("Merge requests", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/closes_issues",
      summary: "List the issues a merge request closes",
      auth: READ,
      schema: z.object({ merge_request_iid: p.recordId(), page: raw, per_page: raw, pagination: raw }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const mr = await findMr(config, o.value.project.id, params.merge_request_iid);
          if (mr.isErr()) return err(mr.error);
          const all = await mergeRequestClosingIssues(config, o.value.project, o.value.repo, mr.value, identity.user);
          return pagedListOf(baseUrl, request, params as Params, all, (page) => renderIssues(store, baseUrl, page, { kind: "project" }, [o.value.project], config.clock.now()));
        }),
    }),
  ]);
}
