/**
 * `GET /projects/:id/merge_requests/:merge_request_iid/versions` and `.../versions/:version_id`
 * (reference `lib/api/merge_request_diffs.rb`): the versions of a merge request newest first,
 * paginated, and one version with its commits and diffs (`unidiff=true`: diffs in unified format).
 * Reading as the merge request itself: invisible project 404, no code access 403.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params, RouteAuth } from "../http/types.js";
import { findMergeRequest, readableProject } from "../repository-api/context.js";
import { pagedListOf } from "../repository-api/routes/kit.js";
import { versionEntity, versionFullEntity } from "./entities.js";
import { versionContents, versionFacts } from "./git.js";

const READ: RouteAuth = { mode: "optional" };
const raw = z.unknown().optional();

/** Builds the version routes. */
export function mergeRequestVersionRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  return tagRoutes("Merge request versions", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/versions",
      summary: "List the versions of a merge request",
      auth: READ,
      schema: z.object({ merge_request_iid: p.recordId(), page: raw, per_page: raw, pagination: raw }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readableProject(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const mr = await findMergeRequest(config, o.value.project.id, params.merge_request_iid);
          if (mr.isErr()) return err(mr.error);
          const all = await store.mergeRequestVersions.list(mr.value.id);
          return pagedListOf(baseUrl, request, params as Params, all, async (page) => {
            const body = [];
            for (const v of page) body.push(versionEntity(v, await versionFacts(o.value.repo, v)));
            return body;
          });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/versions/:version_id",
      summary: "Get one version of a merge request with its commits and diffs",
      auth: READ,
      schema: z.object({ merge_request_iid: p.recordId(), version_id: p.recordId(), unidiff: p.bool().optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readableProject(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const mr = await findMergeRequest(config, o.value.project.id, params.merge_request_iid);
          if (mr.isErr()) return err(mr.error);
          const version = await store.mergeRequestVersions.find(mr.value.id, params.version_id);
          if (version === null) return err(errors.notFound());
          const { commits, diffs } = await versionContents(o.value.repo, version);
          return ok({ body: versionFullEntity(baseUrl, o.value.project, version, await versionFacts(o.value.repo, version), commits, diffs, params.unidiff === true) });
        }),
    }),
  ]);
}
