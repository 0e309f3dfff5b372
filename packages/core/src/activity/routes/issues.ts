/**
 * Issues over REST (spec "Issues"; reference `lib/api/issues.rb`, IssuesFinder, IssuePolicy):
 * `GET /issues`, `GET /groups/:id/issues`, `GET /projects/:id/issues` with the finder's filters,
 * show by iid, create, update (`state_event`, metadata), delete. Metadata (confidential, assignees,
 * labels, milestone, due date, discussion lock) is set only by Reporters and above; for others it is ignored, as the
 * reference's `admin_issue` check does. Creation and title/description changes pass the SpamChecker.
 */
import { milestoneFilter } from "../issuable-facts.js";
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, noneGiven, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import { checkSpam } from "../../http/spam.js";
import type { HttpRequest, ParamValue, RouteResult } from "../../http/types.js";
import type { IssueListFilter } from "../../ports/issue-details-store.js";
import type { ReferenceContext } from "../entities.js";
import type { IssueChanges, IssuesService } from "../issues.js";
import type { Issue } from "../types.js";
import { canReadIssue, canUpdateIssue, confidentialAccess, levelOn, projectWithFeature, readableGroup, visibleProjectIds } from "./access.js";
import { assigneesOf, renderIssues } from "./issue-views.js";
import { withLabelDetails } from "../../labels/index.js";

/** What the issue routes are built from. */
export interface IssueRouteDeps {
  config: ForgekitConfig;
  issues: IssuesService;
}

const raw = p.raw().optional();

/** `labels=a,b` or `labels[]=a`: the names, trimmed, blanks dropped; null when not text. */
export function labelNames(value: ParamValue | undefined): string[] | null | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const names: string[] = [];
  for (const item of items) {
    if (typeof item !== "string" && typeof item !== "number") return null;
    for (const part of String(item).split(",")) if (part.trim() !== "") names.push(part.trim());
  }
  return names;
}

const LIST = {
  ...PAGINATION_PARAMS,
  state: p.enum(["opened", "closed", "all"]).optional(),
  labels: raw,
  milestone: p.string().optional(),
  author_id: p.recordId().optional(),
  assignee_id: raw,
  search: p.string().optional(),
  confidential: p.bool().optional(),
  iids: p.array(p.int()).optional(),
  created_after: p.datetime().optional(),
  created_before: p.datetime().optional(),
  updated_after: p.datetime().optional(),
  updated_before: p.datetime().optional(),
  order_by: p.enum(["created_at", "updated_at", "title"]).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  scope: p.enum(["created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me"]).optional(),
  with_labels_details: p.bool().optional(),
};
type ListParams = z.output<z.ZodObject<typeof LIST>>;

const WRITE = {
  description: p.string().optional(),
  confidential: p.bool().optional(),
  assignee_ids: p.array(p.int()).optional(),
  assignee_id: p.int().optional(),
  labels: raw,
  milestone_id: p.int().optional(),
  /** `YYYY-MM-DD`; an empty value removes the due date (reference). */
  due_date: z.union([p.date(), z.literal("")]).optional(),
};

const UPDATE_FIELDS = ["discussion_locked", "assignee_id", "assignee_ids", "confidential", "description", "labels", "add_labels", "remove_labels", "milestone_id", "state_event", "title", "due_date"];

/** The due date a write asks for: a date, null to remove it (an empty value), or undefined (not given). */
const dueDateOf = (value: string | undefined): string | null | undefined => (value === undefined ? undefined : value === "" ? null : value);

/** The finder filters of a list request, or the 400 naming the bad parameter. */
function filterFrom(params: ListParams, user: User | null, defaultScope: "created_by_me" | "all"): Result<Omit<IssueListFilter, "projectIds" | "confidentialAccess">, ForgekitError> {
  const filter: Omit<IssueListFilter, "projectIds" | "confidentialAccess"> = { orderBy: params.order_by ?? "created_at", sort: params.sort ?? "desc" };
  if (params.state !== undefined && params.state !== "all") filter.state = params.state;
  const labels = labelNames(params.labels);
  if (labels === null) return err(errors.invalidParam("labels"));
  if (labels !== undefined && labels.length > 0) {
    const only = labels.length === 1 ? labels[0]!.toLowerCase() : "";
    filter.labels = only === "none" ? "none" : only === "any" ? "any" : labels;
  }
  if (params.milestone !== undefined) filter.milestone = milestoneFilter(params.milestone);
  if (params.assignee_id !== undefined) {
    const given = params.assignee_id;
    const value = typeof given === "string" || typeof given === "number" ? String(given) : null;
    const lower = value?.toLowerCase();
    if (lower === "none" || lower === "any") filter.assignee = lower;
    else if (value !== null && /^\d+$/.test(value)) filter.assignee = Number(value);
    else return err(errors.invalidParam("assignee_id"));
  }
  if (params.author_id !== undefined) filter.authorId = params.author_id;
  if (params.search !== undefined && params.search !== "") filter.search = params.search;
  if (params.confidential !== undefined) filter.confidential = params.confidential;
  if (params.iids !== undefined) filter.iids = params.iids;
  if (params.created_after !== undefined) filter.createdAfter = new Date(params.created_after);
  if (params.created_before !== undefined) filter.createdBefore = new Date(params.created_before);
  if (params.updated_after !== undefined) filter.updatedAfter = new Date(params.updated_after);
  if (params.updated_before !== undefined) filter.updatedBefore = new Date(params.updated_before);
  const scope = (params.scope ?? defaultScope).replaceAll("-", "_");
  if (scope !== "all") {
    // Reference: anonymous callers of the project and group lists get every visible issue.
    if (user !== null && scope === "created_by_me") filter.authorId = user.id;
    if (user !== null && scope === "assigned_to_me") filter.assignee = user.id;
  }
  return ok(filter);
}

/** Builds the issue routes. */
export function issueRoutes({ config, issues }: IssueRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  const list = (request: HttpRequest, params: ListParams, user: User | null, defaultScope: "created_by_me" | "all", scopeOf: () => Promise<Result<{ projectIds: number[]; known: Project[]; context: ReferenceContext }, ForgekitError>>) =>
    respond(async (): Promise<Result<RouteResult, ForgekitError>> => {
      const page = offsetOnly(readPage(params, null));
      if (page.isErr()) return err(page.error);
      const scope = await scopeOf();
      if (scope.isErr()) return err(scope.error);
      const filter = filterFrom(params, user, defaultScope);
      if (filter.isErr()) return err(filter.error);
      const { projectIds, known, context } = scope.value;
      const access = await confidentialAccess(store, user, clock.now(), projectIds);
      const result = await store.activity.issueDetails.list({ ...filter.value, projectIds, confidentialAccess: access }, page.value);
      const rendered = await renderIssues(store, baseUrl, result.items, context, known, clock.now(), user);
      const body = params.with_labels_details === true ? await withLabelDetails(store.imports.labels, "Issue", rendered) : rendered;
      return ok({ body, headers: listHeaders(baseUrl, request, page.value, result) });
    });

  /** The readable project, its issue by iid when the user may read it, and the user's level. */
  const issueIn = async (user: User | null, projectRef: number | string, iid: number) => {
    const now = clock.now();
    const project = await projectWithFeature(store, user, projectRef, "issues", now);
    if (project.isErr()) return err(project.error);
    const issue = await store.activity.issues.findByIid(project.value.id, iid);
    const level = await levelOn(store, user, project.value, now);
    const assignees = issue === null ? [] : ((await assigneesOf(store, [issue])).get(issue.id) ?? []);
    if (issue === null || !canReadIssue(user, level, issue, assignees)) return err(errors.notFound("Issue"));
    return ok({ project: project.value, issue, level, assignees });
  };

  const one = async (issue: Issue, project: Project, viewer: User | null) => (await renderIssues(store, baseUrl, [issue], { kind: "project" }, [project], clock.now(), viewer))[0];

  return [
    defineRoute({
      method: "GET",
      path: "/issues",
      auth: { mode: "optional" },
      schema: z.object(LIST),
      handler: ({ identity, params, request }) =>
        list(request, params, identity.user, "created_by_me", async () => {
          // Reference: `authenticate! unless params[:scope] == 'all'`.
          if (identity.user === null && params.scope !== "all") return err(errors.unauthorized());
          return ok({ projectIds: await visibleProjectIds(store, identity.user, clock.now()), known: [], context: { kind: "global" } });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/groups/:id/issues",
      auth: { mode: "optional" },
      schema: z.object({ ...LIST, id: p.id() }),
      handler: ({ identity, params, request }) =>
        list(request, params, identity.user, "all", async () => {
          const group = await readableGroup(store, identity.user, params.id, clock.now());
          if (group.isErr()) return err(group.error);
          const projectIds = await visibleProjectIds(store, identity.user, clock.now(), group.value);
          return ok({ projectIds, known: [], context: { kind: "group", fullPath: group.value.fullPath } });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/issues",
      auth: { mode: "optional" },
      schema: z.object({ ...LIST, id: p.id() }),
      handler: ({ identity, params, request }) =>
        list(request, params, identity.user, "all", async () => {
          const project = await projectWithFeature(store, identity.user, params.id, "issues", clock.now());
          if (project.isErr()) return err(project.error);
          return ok({ projectIds: [project.value.id], known: [project.value], context: { kind: "project" } });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/projects/:id/issues/:issue_iid",
      auth: { mode: "optional" },
      schema: z.object({ id: p.id(), issue_iid: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await issueIn(identity.user, params.id, params.issue_iid);
          if (found.isErr()) return err(found.error);
          return ok({ body: await one(found.value.issue, found.value.project, identity.user) });
        }),
    }),
    defineRoute({
      method: "POST",
      path: "/projects/:id/issues",
      auth: { mode: "required" },
      schema: z.object({ ...WRITE, id: p.id(), title: p.string(), created_at: p.datetime().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const now = clock.now();
          const project = await projectWithFeature(store, user, params.id, "issues", now);
          if (project.isErr()) return err(project.error);
          const level = await levelOn(store, user, project.value, now);
          const labels = labelNames(params.labels);
          if (labels === null) return err(errors.invalidParam("labels"));
          const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "issue", text: `${params.title}\n${params.description ?? ""}` });
          if (spam.isErr()) return err(spam.error);
          const admin = level >= AccessLevel.Reporter;
          const assigneeIds = params.assignee_ids ?? (params.assignee_id === undefined ? undefined : [params.assignee_id]);
          const created = await issues.create({
            projectId: project.value.id,
            authorId: user.id,
            title: params.title,
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.confidential === undefined ? {} : { confidential: params.confidential }),
            ...(admin && assigneeIds !== undefined ? { assigneeIds: assigneeIds.filter((id) => id !== 0) } : {}),
            ...(admin && labels !== undefined ? { labels } : {}),
            ...(admin && params.milestone_id !== undefined ? { milestoneId: params.milestone_id } : {}),
            // Reference `IssuableBaseService#filter_params`: the due date is metadata, Reporters and above set it.
            ...(admin && dueDateOf(params.due_date) !== undefined ? { dueDate: dueDateOf(params.due_date) ?? null } : {}),
            // Reference: `created_at` is honoured for administrators and project owners only.
            ...(params.created_at !== undefined && level >= AccessLevel.Owner ? { createdAt: new Date(params.created_at) } : {}),
          });
          if (created.isErr()) return err(created.error);
          return ok({ status: 201, body: await one(created.value, project.value, user) });
        }),
    }),
    defineRoute({
      method: "PUT",
      path: "/projects/:id/issues/:issue_iid",
      auth: { mode: "required" },
      schema: z.object({ ...WRITE, id: p.id(), issue_iid: p.recordId(), title: p.string().optional(), add_labels: raw, remove_labels: raw, state_event: p.enum(["close", "reopen"]).optional(), discussion_locked: p.bool().optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const missing = noneGiven(params, UPDATE_FIELDS);
          if (missing !== null) return err(missing);
          const found = await issueIn(user, params.id, params.issue_iid);
          if (found.isErr()) return err(found.error);
          const { issue, project, level, assignees } = found.value;
          if (!canUpdateIssue(user, level, issue, assignees)) return err(errors.forbidden());
          const lists = { labels: labelNames(params.labels), add_labels: labelNames(params.add_labels), remove_labels: labelNames(params.remove_labels) };
          for (const [name, value] of Object.entries(lists)) if (value === null) return err(errors.invalidParam(name));
          if (params.title !== undefined || params.description !== undefined) {
            const text = `${params.title ?? issue.title}\n${params.description ?? issue.description}`;
            const spam = await checkSpam(config.spamChecker, request, { userId: user.id, target: "issue", text });
            if (spam.isErr()) return err(spam.error);
          }
          const admin = level >= AccessLevel.Reporter;
          const assigneeIds = params.assignee_ids ?? (params.assignee_id === undefined ? undefined : [params.assignee_id]);
          const changes: IssueChanges = {
            ...(params.title === undefined ? {} : { title: params.title }),
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.state_event === undefined ? {} : { stateEvent: params.state_event }),
            ...(admin && params.confidential !== undefined ? { confidential: params.confidential } : {}),
            ...(admin && assigneeIds !== undefined ? { assigneeIds: assigneeIds.filter((id) => id !== 0) } : {}),
            ...(admin && lists.labels ? { labels: lists.labels } : {}),
            ...(admin && lists.add_labels ? { addLabels: lists.add_labels } : {}),
            ...(admin && lists.remove_labels ? { removeLabels: lists.remove_labels } : {}),
            ...(admin && params.milestone_id !== undefined ? { milestoneId: params.milestone_id === 0 ? null : params.milestone_id } : {}),
            ...(admin && dueDateOf(params.due_date) !== undefined ? { dueDate: dueDateOf(params.due_date) ?? null } : {}),
            // Reference `Issues::UpdateService` keeps `discussion_locked` for who may admin the issue (Reporter+).
            ...(admin && params.discussion_locked !== undefined ? { discussionLocked: params.discussion_locked } : {}),
          };
          const updated = await issues.update(project.id, issue.iid, user.id, changes);
          if (updated.isErr()) return err(updated.error);
          return ok({ body: await one(updated.value, project, user) });
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: "/projects/:id/issues/:issue_iid",
      auth: { mode: "required" },
      schema: z.object({ id: p.id(), issue_iid: p.recordId() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await issueIn(identity.user, params.id, params.issue_iid);
          if (found.isErr()) return err(found.error);
          // Reference `destroy_issue`: project owners and administrators.
          if (found.value.level < AccessLevel.Owner) return err(errors.forbidden());
          const removed = await issues.remove(found.value.project.id, found.value.issue.iid);
          return removed.map(() => ({ status: 204 }));
        }),
    }),
  ];
}
