/**
 * The closing relation between merge requests and issues over REST:
 * - `GET /projects/:id/merge_requests/:merge_request_iid/closes_issues` (reference
 *   `lib/api/merge_requests.rb`, `visible_closing_issues_for(current_user)`): the issues the merge
 *   request will close (or closed), paginated, as `Issue` entities — only those the caller may read.
 * - `GET /projects/:id/issues/:issue_iid/closed_by` (reference `lib/api/issues.rb`: the
 *   `merge_requests_closing_issues` rows of the issue through `MergeRequestsFinder` of the issue's
 *   project): the project's merge requests that close the issue, open, closed or merged, newest
 *   first, as `MergeRequestBasic`, paginated. The issue is looked up as the issue routes do (404
 *   invisible project or issue, 403 without the issues feature); a caller who may not read the
 *   project's merge requests gets an empty list.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { canReadMergeRequests } from "../access/features.js";
import { canReadIssue, levelOn, projectWithFeature } from "../activity/routes/access.js";
import { renderIssues } from "../activity/routes/issue-views.js";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params } from "../http/types.js";
import { pagedListOf } from "../repository-api/routes/kit.js";
import { mergeRequestClosingIssues } from "./closing.js";
import { findMr, readable, READ } from "./route-helpers.js";
import { openProjectRepo, renderMergeRequests } from "./service.js";

const raw = z.unknown().optional();

/** Builds the closes_issues and closed_by routes. */
export function closingIssuesRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  return [
    ...tagRoutes("Merge requests", [
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
            return pagedListOf(baseUrl, request, params as Params, all, (page) => renderIssues(store, baseUrl, page, { kind: "project" }, [o.value.project], config.clock.now(), identity.user));
          }),
      }),
    ]),
    ...tagRoutes("Issues", [
      defineRoute({
        method: "GET",
        path: "/projects/:id/issues/:issue_iid/closed_by",
        summary: "List the merge requests that close an issue",
        auth: READ,
        schema: z.object({ id: p.id(), issue_iid: p.recordId(), page: raw, per_page: raw, pagination: raw }),
        handler: ({ identity, params, request }) =>
          respond(async () => {
            const user = identity.user;
            const now = config.clock.now();
            const project = await projectWithFeature(store, user, params.id, "issues", now);
            if (project.isErr()) return err(project.error);
            const issue = await store.activity.issues.findByIid(project.value.id, params.issue_iid);
            const assignees = issue === null ? [] : ((await store.activity.issueDetails.assigneesOf([issue.id])).get(issue.id) ?? []);
            if (issue === null || !canReadIssue(user, await levelOn(store, user, project.value, now), issue, assignees)) return err(errors.notFound("Issue"));
            const page = offsetPage(params as Params);
            if (page.isErr()) return err(page.error);
            const result = (await canReadMergeRequests(store, user, project.value, now))
              ? await store.reviews.listMergeRequests({ projectIds: [project.value.id], closesIssueId: issue.id, orderBy: "created_at", sort: "desc" }, page.value)
              : { items: [], total: 0, hasNext: false };
            const repo = result.items.length === 0 ? null : await openProjectRepo(config, project.value);
            const body = await renderMergeRequests(config, project.value, repo, result.items, null);
            return ok({ body, headers: listHeaders(baseUrl, request, page.value, result) });
          }),
      }),
    ]),
  ];
}
