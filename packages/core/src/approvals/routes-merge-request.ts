/**
 * Approvals of one merge request (reference `ee/lib/api/merge_request_approvals.rb` and CE's
 * `approve` / `unapprove`): `GET .../approvals`, `POST .../approve` (optional `sha` must be the
 * source tip: 409), `POST .../unapprove`, and `GET .../approval_state` (premium). Reading as the
 * merge request; approving needs Developer+ (403), then eligibility (401); unapproving without an
 * approval is 404. Each approval writes a system note and an `approved` event.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { hasProjectAccess } from "../access/permissions.js";
import { requireFeature } from "../access/tier.js";
import { AccessLevel, type Project, type User } from "../accounts/types.js";
import { mergeRequestEvent } from "../activity/event-inputs.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { insertEvent } from "../events/record.js";
import { p } from "../http/params.js";
import { defineRoute, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { RouteAuth, RouteResult } from "../http/types.js";
import type { MergeRequestRecord } from "../ports/review-store.js";
import { findMergeRequest, readableProject } from "../repository-api/context.js";
import { branchCommit } from "../repository-api/git/reads.js";
import type { GitRepo } from "../repository-api/git/repo.js";
import { approvalsEntity, approvalStateEntity, loadNamed } from "./entities.js";
import { approvalState, canApprove } from "./state.js";

/** What the routes need from the merge-request capability: the `merge_status` the entity shows. */
export interface ApprovalRouteDeps {
  mergeStatus(project: Project, repo: GitRepo | null, mr: MergeRequestRecord): Promise<string>;
}

const READ: RouteAuth = { mode: "optional" };
const WRITE: RouteAuth = { mode: "required" };
const iidSchema = z.object({ merge_request_iid: p.recordId() });

/** Builds the merge-request approval routes. */
export function mergeRequestApprovalRoutes(config: ForgekitConfig, deps: ApprovalRouteDeps): AnyRoute[] {
  const { store, clock, baseUrl } = config;

  const lookup = async (identity: Parameters<typeof readableProject>[1], id: string | undefined, iid: number) => {
    const o = await readableProject(config, identity, id);
    if (o.isErr()) return err(o.error);
    const mr = await findMergeRequest(config, o.value.project.id, iid);
    if (mr.isErr()) return err(mr.error);
    return ok({ ...o.value, mr: mr.value });
  };

  const render = async (project: Project, repo: GitRepo | null, mr: MergeRequestRecord, viewer: User | null) => {
    const state = await approvalState(config, project, mr);
    const named = await loadNamed(config, viewer, [...state.approvals.map((a) => a.userId), ...state.rules.flatMap((r) => r.rule?.userIds ?? [])], []);
    const hasApproved = viewer !== null && state.approvals.some((a) => a.userId === viewer.id);
    const viewerState = { hasApproved, canApprove: await canApprove(config, project, repo, mr, viewer, state) };
    return approvalsEntity(baseUrl, named, mr, state, await deps.mergeStatus(project, repo, mr), viewerState);
  };

  /** Developer+ may approve or unapprove at all (reference policy `approve_merge_request`): else 403. */
  const mayApprove = (user: User, project: Project) => hasProjectAccess(store, user, project, AccessLevel.Developer, clock.now());

  return tagRoutes("Merge request approvals", [
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/approvals",
      summary: "Get the approvals of a merge request",
      auth: READ,
      schema: iidSchema,
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await lookup(identity, pathParams["id"], params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const { project, repo, mr } = found.value;
          return ok({ body: await render(project, repo, mr, identity.user) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/approval_state",
      summary: "Get the approval state of a merge request (premium)",
      auth: READ,
      schema: iidSchema,
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await lookup(identity, pathParams["id"], params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const gate = requireFeature(config.tier, "approvalRules");
          if (gate.isErr()) return err(gate.error);
          const state = await approvalState(config, found.value.project, found.value.mr);
          const named = await loadNamed(config, identity.user, [...state.approvals.map((a) => a.userId), ...state.rules.flatMap((r) => r.rule?.userIds ?? [])], state.rules.flatMap((r) => r.rule?.groupIds ?? []));
          return ok({ body: approvalStateEntity(baseUrl, named, state) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/merge_requests/:merge_request_iid/approve",
      summary: "Approve a merge request",
      auth: WRITE,
      schema: z.object({ merge_request_iid: p.recordId(), sha: p.string().optional(), approval_password: p.string().optional() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async (): Promise<Result<RouteResult, ForgekitError>> => {
          const found = await lookup(identity, pathParams["id"], params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const { project, repo, mr } = found.value;
          const user = identity.user as User;
          if (!(await mayApprove(user, project))) return err(errors.forbidden());
          if (params.sha !== undefined) {
            const head = repo === null ? null : await branchCommit(repo, mr.sourceBranch);
            if (head !== params.sha) return ok({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${head ?? ""}` } });
          }
          if (!(await canApprove(config, project, repo, mr, user, await approvalState(config, project, mr)))) return err(errors.unauthorized());
          const now = clock.now();
          const written = await store.transaction(async (tx): Promise<Result<boolean, ForgekitError>> => {
            if (!(await tx.approvals.approve(mr.id, user.id, now))) return ok(false);
            await tx.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: "approved this merge request", system: true }, now);
            const event = await insertEvent(tx, mergeRequestEvent(mr, "approved", user.id), now);
            if (event.isErr()) throw new ApprovalRefused(event.error);
            return ok(true);
          }).catch((cause: unknown) => {
            if (cause instanceof ApprovalRefused) return err(cause.error);
            throw cause;
          });
          if (written.isErr()) return err(written.error);
          // A racing second approval by the same user wrote nothing: as already approved.
          if (!written.value) return err(errors.unauthorized());
          return ok({ status: 201, body: await render(project, repo, mr, user) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/merge_requests/:merge_request_iid/unapprove",
      summary: "Remove your approval of a merge request",
      auth: WRITE,
      schema: iidSchema,
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const found = await lookup(identity, pathParams["id"], params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const { project, repo, mr } = found.value;
          const user = identity.user as User;
          if (!(await mayApprove(user, project))) return err(errors.forbidden());
          const now = clock.now();
          const removed = await store.transaction(async (tx) => {
            if (!(await tx.approvals.unapprove(mr.id, user.id))) return false;
            await tx.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: "unapproved this merge request", system: true }, now);
            return true;
          });
          if (!removed) return err(errors.notFound());
          return ok({ status: 201, body: await render(project, repo, mr, user) });
        }),
    }),
  ]);
}

/** An event the store refused: thrown to roll the approval back. */
class ApprovalRefused extends Error {
  constructor(readonly error: ForgekitError) {
    super(error.code);
  }
}
