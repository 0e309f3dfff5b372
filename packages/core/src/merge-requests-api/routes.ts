/**
 * `/projects/:id/merge_requests` (reference `lib/api/merge_requests.rb`): list with filters,
 * create, show, update, delete, commits and changes (merging: routes-merge.ts). Invisible projects are 404; reading
 * needs code access (private: Reporter+); creating and merging Developer+; editing the author or
 * Developer+; deleting Owners and administrators.
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { hasProjectAccess } from "../access/permissions.js";
import { AccessLevel, type User } from "../accounts/types.js";
import { mergeRequestEvent } from "../activity/event-inputs.js";
import { projectMilestone } from "../activity/issues.js";
import type { ForgekitConfig } from "../config.js";
import { errors } from "../errors.js";
import { offsetPage } from "../http/pagination-offset.js";
import { p } from "../http/params.js";
import { defineRoute, listHeaders, noneGiven, respond, tagRoutes } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import { checkSpam } from "../http/spam.js";
import type { Params, RouteResult } from "../http/types.js";
import type { MergeRequestListFilter, MergeRequestRecord } from "../ports/review-store.js";
import type { TransactionStore } from "../ports/store.js";
import type { ProjectRepository } from "../repository-api/context.js";
import { diffCommits } from "../repository-api/git/diffs.js";
import { listCommits } from "../repository-api/git/reads.js";
import { commitEntity, diffEntity } from "../repository-api/entities.js";
import { gitFacts } from "./git-facts.js";
import { closingIssueIdsAfterUpdate, closingIssueIdsToStore } from "./closing.js";
import { PEOPLE_PARAMS, peopleFrom } from "./people.js";
import { bool, findMr, readable, READ, renderOne, WRITE } from "./route-helpers.js";
import { badPersonParam, listFilter, mergeRequestListRoutes } from "./routes-lists.js";
import { mergeRoutes } from "./routes-merge.js";
import { findOrCreateLabels } from "../labels/index.js";
import { versionOf } from "../merge-request-versions/index.js";
import { branchCommits } from "./git-merge.js";
import { branchesExist, branchProblems, canDestroy, canUpdate, insertEventOrThrow, labelNames, renderMergeRequests, withEvents } from "./service.js";
import { queueIssuableUpdate } from "../webhooks/fanout.js";
import { mergeRequestHook, mergeRequestSnapshot } from "../webhooks/payloads/issuable.js";

const raw = z.unknown().optional();
const pageParams = { page: raw, per_page: raw, pagination: raw };

/** Writes the people and the source-branch removal a create or update sent. */
async function setPeople(tx: TransactionStore, mrId: number, people: { assignees?: number[]; reviewers?: number[] }, removeSourceBranch: boolean | undefined): Promise<void> {
  if (people.assignees !== undefined) await tx.mergeRequestExtras.setAssignees(mrId, people.assignees);
  if (people.reviewers !== undefined) await tx.mergeRequestExtras.setReviewers(mrId, people.reviewers);
  if (removeSourceBranch !== undefined) await tx.mergeRequestExtras.setForceRemoveSourceBranch(mrId, removeSourceBranch);
}

/** Builds the merge-request routes. */
export function mergeRequestRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, clock, baseUrl } = config;
  const render = (o: ProjectRepository, mr: MergeRequestRecord, viewer: User | null) => renderOne(config, o, mr, viewer);

  return tagRoutes("Merge requests", [
    ...mergeRequestListRoutes(config),
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests",
      auth: READ,
      schema: z.object({
        state: p.enum(["opened", "closed", "locked", "merged", "all"]).optional(),
        order_by: p.enum(["created_at", "updated_at", "title", "merged_at"]).optional(),
        sort: p.enum(["asc", "desc"]).optional(),
        labels: raw,
        author_id: p.recordId().optional(),
        assignee_id: raw,
        reviewer_id: raw,
        milestone: p.string().optional(),
        source_branch: p.string().optional(),
        target_branch: p.string().optional(),
        search: p.string().optional(),
        iids: p.array(p.int()).optional(),
        created_after: p.datetime().optional(),
        created_before: p.datetime().optional(),
        view: p.enum(["simple"]).optional(),
        with_labels_details: p.bool().optional(),
        ...pageParams,
      }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const bad = badPersonParam(params);
          if (bad !== null) return err(bad);
          const filter: MergeRequestListFilter = { ...listFilter([o.value.project.id], params), ...(params.iids === undefined ? {} : { iids: params.iids }) };
          // "locked" is a state forgekit never enters: nothing matches.
          const result = params.state === "locked" ? { items: [], total: 0, hasNext: false } : await store.reviews.listMergeRequests(filter, page.value);
          const body =
            params.view === "simple"
              ? result.items.map((mr) => ({ id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, description: mr.description, state: mr.state, created_at: mr.createdAt.toISOString(), updated_at: mr.updatedAt.toISOString(), web_url: `${baseUrl.replace(/\/$/, "")}/${o.value.project.fullPath}/-/merge_requests/${mr.iid}` }))
              : await renderMergeRequests(config, o.value.project, o.value.repo, result.items, null, params.with_labels_details === true);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/merge_requests",
      auth: WRITE,
      schema: z.object({
        source_branch: p.string(),
        target_branch: p.string(),
        title: p.string(),
        description: p.string().optional(),
        labels: raw,
        target_project_id: p.recordId().optional(),
        remove_source_branch: bool(),
        squash: bool(),
        assignee_id: raw,
        assignee_ids: raw,
        reviewer_ids: raw,
        milestone_id: p.int().optional(),
      }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const { project, repo } = o.value;
          const user = identity.user as User;
          const now = clock.now();
          if (!(await hasProjectAccess(store, user, project, AccessLevel.Developer, now))) return err(errors.forbidden());
          if (params.target_project_id !== undefined && params.target_project_id !== project.id) return err(errors.badRequestMessage("Cross-project merge requests are not supported"));
          const messages: Record<string, string[]> = {};
          if (params.title.trim() === "") messages["title"] = ["can't be blank"];
          else if (params.title.length > 255) messages["title"] = ["is too long (maximum is 255 characters)"];
          if (Object.keys(messages).length > 0) return err(errors.validation(messages));
          const people = await peopleFrom(config, project, params);
          if (people.isErr()) return err(people.error);
          const [sourceTip = null, targetTip = null] = repo === null ? [] : await branchCommits(repo, [params.source_branch, params.target_branch]);
          const problems = branchProblems(sourceTip !== null, targetTip !== null, params.source_branch, params.target_branch);
          if (problems !== null) return err(problems);
          const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "merge_request", text: `${params.title}\n${params.description ?? ""}` });
          if (spam.isErr()) return err(spam.error);
          // The first version: read from git before the transaction, written inside it.
          const version = repo === null || sourceTip === null || targetTip === null ? null : await versionOf(repo, sourceTip, targetTip);
          // What it closes, read as its creator before the transaction (reference `AfterCreateService`), written inside it.
          const closes = await closingIssueIdsToStore(config, project, repo, { state: "opened", mergeCommitSha: null, title: params.title, description: params.description ?? "", sourceBranch: params.source_branch, targetBranch: params.target_branch }, user);
          const created = await withEvents(() => store.transaction(async (tx): Promise<Result<MergeRequestRecord, RouteResult>> => {
            const open = await tx.reviews.findOpenMergeRequest(project.id, params.source_branch, params.target_branch);
            if (open !== null) return err({ status: 409, body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] } });
            const mr = await tx.activity.mergeRequests.create({ projectId: project.id, authorId: user.id, title: params.title, description: params.description ?? "", sourceBranch: params.source_branch, targetBranch: params.target_branch }, now);
            const names = labelNames(params.labels) ?? [];
            if (names.length > 0) await tx.reviews.setMergeRequestLabels(mr.id, await findOrCreateLabels(tx, project.id, names, now));
            await setPeople(tx, mr.id, people.value, params.remove_source_branch);
            if (params.squash !== undefined) await tx.mergeRequestExtras.setSquash(mr.id, params.squash);
            const milestone = await projectMilestone(tx, project.id, params.milestone_id);
            if (milestone !== null) await tx.mergeRequestExtras.setMilestone(mr.id, milestone);
            if (version !== null) await tx.mergeRequestVersions.record({ mergeRequestId: mr.id, ...version }, now);
            if (closes !== null) await tx.mergeRequestClosingIssues.replace(mr.id, closes);
            await insertEventOrThrow(tx, mergeRequestEvent(mr, "created", user.id), now, mergeRequestHook(tx, mr.id, { baseUrl, actorId: user.id, action: "created", before: null }));
            return ok((await tx.reviews.findMergeRequest(mr.id)) as MergeRequestRecord);
          }));
          if (created.isErr()) return "code" in created.error ? err(created.error) : ok(created.error);
          return ok({ status: 201, body: await render(o.value, created.value, user) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid",
      auth: READ,
      schema: z.object({ merge_request_iid: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const mr = await findMr(config, o.value.project.id, params.merge_request_iid);
          if (mr.isErr()) return err(mr.error);
          return ok({ body: await render(o.value, mr.value, identity.user) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/projects/:id/merge_requests/:merge_request_iid",
      auth: WRITE,
      schema: z.object({
        merge_request_iid: p.recordId(),
        title: p.string().optional(),
        description: p.string().optional(),
        target_branch: p.string().optional(),
        state_event: p.enum(["close", "reopen"]).optional(),
        labels: raw,
        add_labels: raw,
        remove_labels: raw,
        remove_source_branch: bool(),
        squash: bool(),
        discussion_locked: bool(),
        assignee_id: raw,
        assignee_ids: raw,
        reviewer_ids: raw,
        milestone_id: p.int().optional(),
      }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const { project, repo } = o.value;
          const user = identity.user as User;
          const found = await findMr(config, project.id, params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const given = ["title", "description", "target_branch", "state_event", "labels", "add_labels", "remove_labels", "remove_source_branch", "squash", "discussion_locked", "milestone_id", ...PEOPLE_PARAMS] as const;
          const missing = noneGiven(params, given);
          if (missing !== null) return err(missing);
          if (!(await canUpdate(config, user, project, found.value))) return err(errors.forbidden());
          const mr = found.value;
          const people = await peopleFrom(config, project, params);
          if (people.isErr()) return err(people.error);
          if (params.title !== undefined && params.title.trim() === "") return err(errors.validation({ title: ["can't be blank"] }));
          if (params.title !== undefined && params.title.length > 255) return err(errors.validation({ title: ["is too long (maximum is 255 characters)"] }));
          if (params.target_branch !== undefined && params.target_branch !== mr.targetBranch) {
            const [targetExists = false] = await branchesExist(repo, [params.target_branch]);
            const problems = branchProblems(true, targetExists, mr.sourceBranch, params.target_branch);
            if (problems !== null) return err(problems);
          }
          if (params.title !== undefined || params.description !== undefined) {
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "merge_request", text: `${params.title ?? mr.title}\n${params.description ?? mr.description}` });
            if (spam.isErr()) return err(spam.error);
          }
          const now = clock.now();
          const admin = (params.milestone_id !== undefined || params.discussion_locked !== undefined) && (await hasProjectAccess(store, user, project, AccessLevel.Developer, now));
          const reopening = params.state_event === "reopen" && mr.state === "closed";
          // A state change the merge request cannot make (closing a merged one) is ignored, as the reference does.
          const closing = params.state_event === "close" && mr.state === "opened";
          const state = reopening ? "opened" : closing ? "closed" : mr.state;
          const closes = await closingIssueIdsAfterUpdate(config, project, repo, mr, { title: params.title, description: params.description, targetBranch: params.target_branch, state }, user);
          const updated = await withEvents(() => store.transaction(async (tx): Promise<Result<MergeRequestRecord, RouteResult>> => {
            const target = params.target_branch ?? mr.targetBranch;
            if (reopening || (mr.state === "opened" && target !== mr.targetBranch)) {
              const open = await tx.reviews.findOpenMergeRequest(project.id, mr.sourceBranch, target, mr.id);
              if (open !== null) return err({ status: 409, body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] } });
            }
            // What it was, for the hooks' `changes` (reference `associations_before_update`).
            const before = await mergeRequestSnapshot(tx, mr.id);
            await tx.reviews.updateMergeRequest(mr.id, {
              ...(params.title === undefined ? {} : { title: params.title }),
              ...(params.description === undefined ? {} : { description: params.description }),
              ...(params.target_branch === undefined ? {} : { targetBranch: params.target_branch }),
              updatedAt: now,
            });
            if (closes !== null) await tx.mergeRequestClosingIssues.replace(mr.id, closes);
            await setPeople(tx, mr.id, people.value, params.remove_source_branch);
            if (params.squash !== undefined) await tx.mergeRequestExtras.setSquash(mr.id, params.squash);
            // Reference `MergeRequests::UpdateService`: only who may administer merge requests (Developer+) sets the milestone and the discussion lock; others' are dropped.
            if (admin && params.milestone_id !== undefined) await tx.mergeRequestExtras.setMilestone(mr.id, await projectMilestone(tx, project.id, params.milestone_id));
            if (admin && params.discussion_locked !== undefined) {
              const was = (await tx.mergeRequestExtras.extras([mr.id])).get(mr.id)?.discussionLocked ?? false;
              await tx.mergeRequestExtras.setDiscussionLocked(mr.id, params.discussion_locked);
              const body = `${params.discussion_locked ? "locked" : "unlocked"} the discussion in this merge request`;
              if (params.discussion_locked !== was) await tx.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body, system: true }, now);
            }
            const names = labelNames(params.labels);
            const add = labelNames(params.add_labels) ?? [];
            const remove = new Set(labelNames(params.remove_labels) ?? []);
            if (names !== null || add.length > 0 || remove.size > 0) {
              const current = (await tx.reviews.mergeRequestLabelNames([mr.id])).get(mr.id) ?? [];
              const next = [...new Set([...(names ?? current), ...add])].filter((n) => !remove.has(n));
              await tx.reviews.setMergeRequestLabels(mr.id, await findOrCreateLabels(tx, project.id, next, now));
            }
            if (closing || reopening) {
              const row = await tx.activity.mergeRequests.update(mr.id, { state: closing ? "closed" : "opened", closedAt: closing ? now : null, updatedAt: now });
              if (row === null) throw new Error("merge request vanished inside its own transaction");
              const action = closing ? "closed" : "reopened";
              await tx.activity.notes.create({ projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: user.id, body: action, system: true }, now);
              // Reference `IssuableBaseService#update`: the state change goes through the close or reopen service first, with its own hook.
              await insertEventOrThrow(tx, mergeRequestEvent(row, action, user.id), now, mergeRequestHook(tx, mr.id, { baseUrl, actorId: user.id, action, before, stateOnly: true }));
            }
            // Anything else given: the `update` hook, whose `changes` hold all the request changed.
            if (given.some((key) => key !== "state_event" && params[key] !== undefined)) {
              await queueIssuableUpdate(tx, { projectId: project.id, targetType: "MergeRequest", id: mr.id, confidential: false }, mergeRequestHook(tx, mr.id, { baseUrl, actorId: user.id, action: "updated", before }), now);
            }
            return ok((await tx.reviews.findMergeRequest(mr.id)) as MergeRequestRecord);
          }));
          if (updated.isErr()) return "code" in updated.error ? err(updated.error) : ok(updated.error);
          return ok({ body: await render(o.value, updated.value, user) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/merge_requests/:merge_request_iid",
      auth: WRITE,
      schema: z.object({ merge_request_iid: p.recordId() }),
      handler: ({ identity, pathParams, params }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const found = await findMr(config, o.value.project.id, params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          if (!(await canDestroy(config, identity.user as User, o.value.project))) return err(errors.forbidden());
          await store.reviews.removeMergeRequest(found.value.id);
          return ok({ status: 204 });
        }),
    }),
    ...mergeRoutes(config),
    defineRoute({
      method: "GET",
      path: "/projects/:id/merge_requests/:merge_request_iid/commits",
      auth: READ,
      schema: z.object({ merge_request_iid: p.recordId(), ...pageParams }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const o = await readable(config, identity, pathParams["id"]);
          if (o.isErr()) return err(o.error);
          const found = await findMr(config, o.value.project.id, params.merge_request_iid);
          if (found.isErr()) return err(found.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const facts = await gitFacts(o.value.repo, found.value);
          const repo = o.value.repo;
          const all = repo === null || facts.diffRefs === null ? [] : await listCommits(repo, { from: [facts.diffRefs.head_sha], exclude: [facts.diffRefs.base_sha], limit: 10_000 });
          const { page: n, perPage } = page.value;
          const items = all.slice((n - 1) * perPage, n * perPage);
          return ok({ body: items.map((c) => commitEntity(baseUrl, o.value.project, c)), headers: listHeaders(baseUrl, request, page.value, { items, total: all.length, hasNext: n * perPage < all.length }) });
        }),
    }),
    ...(["changes", "diffs"] as const).map((kind) =>
      defineRoute({
        method: "GET",
        path: `/projects/:id/merge_requests/:merge_request_iid/${kind}`,
        auth: READ,
        schema: z.object({ merge_request_iid: p.recordId(), ...pageParams }),
        handler: ({ identity, pathParams, params, request }) =>
          respond(async () => {
            const o = await readable(config, identity, pathParams["id"]);
            if (o.isErr()) return err(o.error);
            const found = await findMr(config, o.value.project.id, params.merge_request_iid);
            if (found.isErr()) return err(found.error);
            const facts = await gitFacts(o.value.repo, found.value);
            const repo = o.value.repo;
            const diffs = repo === null || facts.diffRefs === null ? [] : await diffCommits(repo, facts.diffRefs.base_sha, facts.diffRefs.head_sha);
            const rendered = diffs.map(diffEntity);
            if (kind === "changes") {
              const body = (await renderMergeRequests(config, o.value.project, repo, [found.value], { viewer: identity.user }))[0] as Record<string, unknown>;
              return ok({ body: { ...body, changes: rendered, overflow: false } });
            }
            const page = offsetPage(params as Params);
            if (page.isErr()) return err(page.error);
            const { page: n, perPage } = page.value;
            const items = rendered.slice((n - 1) * perPage, n * perPage);
            return ok({ body: items, headers: listHeaders(baseUrl, request, page.value, { items, total: rendered.length, hasNext: n * perPage < rendered.length }) });
          }),
      }),
    ),
  ]);
}
