/**
 * Commit statuses and the external pipelines they make over REST (reference
 * `lib/api/commit_statuses.rb`, `lib/api/ci/pipelines.rb`): post a status (Developer+), list a
 * commit's statuses (signed in, code access), list and show pipelines (code access; anonymous on
 * public projects). There is no CI here: every pipeline listed is one a posted status made.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { hasProjectAccess } from "../access/permissions.js";
import { AccessLevel, type User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params, RouteAuth } from "../http/types.js";
import { COMMIT_STATUS_STATES, type CommitStatusState } from "../ports/statuses-store.js";
import { resolveCommit } from "../repository-api/git/reads.js";
import { readableProject as readable } from "../repository-api/context.js";
import { commitStatusEntity, pipelineBasicEntity, pipelineCoverage, pipelineEntity, usersOf } from "./entities.js";
import { postStatus, type PipelineListener } from "./service.js";
import { POSTED_STATES } from "./state-machine.js";

const raw = z.unknown().optional();
const pageParams = { page: raw, per_page: raw };
/** Grape `Float`: a decimal number. */
const COVERAGE = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** States a pipeline list keeps for `scope` and `status` (both apply); undefined keeps all. */
function pipelineStates(scope: string | undefined, status: CommitStatusState | undefined): CommitStatusState[] | undefined {
  const byScope: CommitStatusState[] | undefined = scope === "running" || scope === "pending" ? [scope] : scope === "finished" ? ["success", "failed", "canceled", "skipped"] : undefined;
  if (status === undefined) return byScope;
  return byScope === undefined || byScope.includes(status) ? [status] : [];
}

/** Builds the status and pipeline routes; `onPipeline` hears every change of a pipeline's status. */
export function statusRoutes(config: ForgekitConfig, onPipeline: PipelineListener): AnyRoute[] {
  const { store, baseUrl } = config;
  const SIGNED_IN: RouteAuth = { mode: "required" };
  const READ: RouteAuth = { mode: "optional" };
  const statuses = [
    defineRoute({
      method: "POST",
      path: "/projects/:id/statuses/:sha",
      summary: "Set the pipeline status of a commit",
      auth: SIGNED_IN,
      schema: z.object({
        sha: p.string(),
        state: p.enum(POSTED_STATES),
        ref: p.string().optional(),
        name: p.string().optional(),
        context: p.string().optional(),
        target_url: p.string().optional(),
        description: p.string().optional(),
        coverage: p.string({ pattern: COVERAGE }).optional(),
        pipeline_id: p.recordId().optional(),
      }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const user = identity.user as User;
          if (!(await hasProjectAccess(store, user, o.value.project, AccessLevel.Developer, config.clock.now()))) return err(errors.forbidden());
          const posted = await postStatus(
            config,
            o.value.project,
            o.value.repo,
            user,
            {
              sha: params.sha,
              state: params.state,
              ref: params.ref,
              name: params.name ?? params.context,
              targetUrl: params.target_url,
              description: params.description,
              coverage: params.coverage === undefined ? undefined : Number(params.coverage),
              pipelineId: params.pipeline_id,
            },
            onPipeline,
          );
          if (posted.isErr()) return err(posted.error);
          return ok({ status: 201, body: commitStatusEntity(baseUrl, await usersOf((id) => store.users.findById(id), [user.id]), posted.value) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/repository/commits/:sha/statuses",
      summary: "List the statuses of a commit",
      auth: SIGNED_IN,
      schema: z.object({ sha: p.string(), ref: p.string().optional(), stage: p.string().optional(), name: p.string().optional(), all: p.bool().optional(), ...pageParams }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          if (o.value.repo === null || (await resolveCommit(o.value.repo, params.sha)) === null) return err(errors.notFound("Commit"));
          // Every status here is in the `external` stage; the reference matches the raw `sha` text, as here.
          const result =
            params.stage !== undefined && params.stage !== "" && params.stage !== "external"
              ? { items: [], total: 0, hasNext: false }
              : await store.statuses.listStatuses({ projectId: o.value.project.id, sha: params.sha, all: params.all === true, ...(params.ref ? { ref: params.ref } : {}), ...(params.name ? { name: params.name } : {}) }, page.value);
          const users = await usersOf((id) => store.users.findById(id), result.items.map((s) => s.authorId));
          return ok({ body: result.items.map((s) => commitStatusEntity(baseUrl, users, s)), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
  ];
  const pipelines = [
    defineRoute({
      method: "GET",
      path: "/projects/:id/pipelines",
      summary: "List the project's pipelines",
      auth: READ,
      schema: z.object({
        scope: p.enum(["running", "pending", "finished", "branches", "tags"]).optional(),
        status: p.enum(COMMIT_STATUS_STATES).optional(),
        source: p.string().optional(),
        ref: p.string().optional(),
        sha: p.string().optional(),
        username: p.string().optional(),
        order_by: p.enum(["id", "status", "ref", "updated_at", "user_id"]).optional(),
        sort: p.enum(["asc", "desc"]).optional(),
        ...pageParams,
      }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const user = params.username === undefined ? undefined : await store.users.findByUsername(params.username);
          const wanted = pipelineStates(params.scope, params.status);
          // External pipelines are all of source `external` on branches: other sources, tags and unknown users match none.
          if ((params.source !== undefined && params.source !== "external") || params.scope === "tags" || user === null || wanted?.length === 0) {
            return ok({ body: [], headers: listHeaders(baseUrl, request, page.value, { items: [], total: 0, hasNext: false }) });
          }
          const filter = {
            projectId: o.value.project.id,
            ...(params.sha === undefined ? {} : { sha: params.sha }),
            ...(params.ref === undefined ? {} : { ref: params.ref }),
            ...(wanted === undefined ? {} : { statuses: wanted }),
            ...(user === undefined ? {} : { userId: user.id }),
            orderBy: params.order_by ?? "id",
            sort: params.sort ?? "desc",
          };
          const result = await store.statuses.listPipelines(filter, page.value);
          return ok({ body: result.items.map((pl) => pipelineBasicEntity(baseUrl, o.value.project, pl)), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/pipelines/:pipeline_id",
      summary: "Show one pipeline",
      auth: READ,
      schema: z.object({ pipeline_id: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const pipeline = await store.statuses.findPipeline(o.value.project.id, params.pipeline_id);
          if (pipeline === null) return err(errors.recordNotFound());
          const latest = await store.statuses.latestStatuses(pipeline.id);
          const users = await usersOf((id) => store.users.findById(id), [pipeline.userId]);
          return ok({ body: pipelineEntity(baseUrl, o.value.project, users, pipeline, pipelineCoverage(latest)) });
        }),
    }),
  ];
  return [...tagRoutes("Commit statuses", statuses), ...tagRoutes("Pipelines", pipelines)];
}
