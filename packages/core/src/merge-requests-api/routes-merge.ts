/**
 * `PUT /projects/:id/merge_requests/:iid/merge` (reference `lib/api/merge_requests.rb`): merges at
 * once, or with `merge_when_pipeline_succeeds` / `auto_merge` while the head pipeline still runs
 * sets the automatic merge (auto-merge.ts); and `POST .../cancel_merge_when_pipeline_succeeds`.
 */
import { err, ok } from "neverthrow";
import * as z from "zod";
import { hasProjectAccess } from "../access/permissions.js";
import { AccessLevel, type User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { p } from "../http/params.js";
import { defineRoute, respond } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { refAccess } from "../protected-refs/index.js";
import { READ_ONLY_MESSAGE } from "../repository-api/context.js";
import { isActive } from "../statuses/index.js";
import { enableAutoMerge } from "./auto-merge.js";
import { gitFacts } from "./git-facts.js";
import { branchCommit } from "./git-merge.js";
import { failedMergeCheck } from "./merge-checks.js";
import { bool, findMr, isRefusal, readable, refusal, renderOne, WRITE } from "./route-helpers.js";
import { mergeMergeRequest } from "./service.js";

/** Builds the merge and cancel routes. */
export function mergeRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock } = config;
  const render = (o: Parameters<typeof renderOne>[1], mr: Parameters<typeof renderOne>[2], viewer: User | null) => renderOne(config, o, mr, viewer);
  return [
    defineRoute({
      method: "PUT",
      path: "/projects/:id/merge_requests/:merge_request_iid/merge",
      summary: "Merge a merge request",
      auth: WRITE,
      schema: z.object({
        merge_request_iid: p.recordId(),
        merge_commit_message: p.string().optional(),
        squash_commit_message: p.string().optional(),
        should_remove_source_branch: bool(),
        merge_when_pipeline_succeeds: bool(),
        auto_merge: bool(),
        sha: p.string().optional(),
        squash: bool(),
      }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const { project, repo } = o.value;
          const user = identity.user as User;
          const found = await findMr(config, project.id, params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          // Reference `unauthorized! unless merge_request.can_be_merged_by?(current_user)`: 401 (Developer+, or the protected target's merge access).
          if (!(await (await refAccess(store, project, user, clock.now())).canMerge(found.value.targetBranch))) return err(errors.unauthorized());
          if (project.repositoryReadOnly) return err(errors.forbidden(READ_ONLY_MESSAGE));
          if (found.value.state !== "opened") return ok(refusal({ status: 405, message: "405 Method Not Allowed" }));
          if (repo === null) return ok(refusal({ status: 406, message: "Branch cannot be merged" }));
          const mr = found.value;
          const extras = (await store.mergeRequestExtras.extras([mr.id])).get(mr.id);
          const removeSource = params.should_remove_source_branch ?? extras?.forceRemoveSourceBranch === true;
          // Reference `automatically_mergeable?`: asked for, and the head pipeline is still running.
          if (params.merge_when_pipeline_succeeds === true || params.auto_merge === true) {
            const sha = await branchCommit(repo, mr.sourceBranch);
            const head = sha === null ? null : await store.statuses.newestPipeline(project.id, { sha, ref: mr.sourceBranch });
            if (sha !== null && head !== null && isActive(head.status)) {
              // Reference `mergeable?(skip_ci_check: true)`: the other checks hold before an automatic merge is set.
              if ((await failedMergeCheck(config, project, mr, sha, true)) !== null) return ok(refusal({ status: 405, message: "405 Method Not Allowed" }));
              if (params.sha !== undefined && params.sha !== sha) return ok(refusal({ status: 409, message: `SHA does not match HEAD of source branch: ${sha}` }));
              if ((await gitFacts(repo, mr)).hasConflicts) return ok(refusal({ status: 406, message: "Branch cannot be merged" }));
              await store.transaction(async (tx) => {
                await enableAutoMerge(tx, mr, user, sha, removeSource, clock.now());
                // The automatic merge squashes as asked now (reference: `squash` is saved on the merge request).
                if (params.squash !== undefined) await tx.mergeRequestExtras.setSquash(mr.id, params.squash);
              });
              return ok({ body: await render(o.value, mr, user) });
            }
          }
          const merged = await mergeMergeRequest(config, repo, project, user, mr, {
            sha: params.sha,
            mergeCommitMessage: params.merge_commit_message,
            shouldRemoveSourceBranch: removeSource,
            squash: params.squash,
            squashCommitMessage: params.squash_commit_message,
          });
          if (merged.isErr()) return isRefusal(merged.error) ? ok(refusal(merged.error)) : err(merged.error);
          return ok({ body: await render(o.value, merged.value, user) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds",
      summary: "Cancel the automatic merge",
      auth: WRITE,
      schema: z.object({ merge_request_iid: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const user = identity.user as User;
          const found = await findMr(config, o.value.project.id, params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const mr = found.value;
          if (!(await hasProjectAccess(store, user, o.value.project, AccessLevel.Developer, clock.now()))) return err(errors.unauthorized());
          const auto = (await store.mergeRequestExtras.extras([mr.id])).get(mr.id)?.autoMerge ?? null;
          const sha = o.value.repo === null ? null : await branchCommit(o.value.repo, mr.sourceBranch);
          if (mr.state !== "opened" || auto === null || auto.sha !== sha) return ok(refusal({ status: 405, message: "405 Method Not Allowed" }));
          await store.transaction(async (tx) => {
            const now = clock.now();
            if (!(await tx.mergeRequestExtras.takeAutoMerge(mr.id, auto.sha))) return;
            await tx.activity.notes.create({ projectId: mr.projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: "canceled the automatic merge", system: true }, now);
          });
          return ok({ status: 201, body: await render(o.value, mr, user) });
        }),
    }),
  ];
}
