/**
 * `GET /merge_requests` (scope `created_by_me` default, `assigned_to_me`, `all`) and
 * `GET /groups/:id/merge_requests` (the group's projects and its subgroups'): the same filters as
 * the project list, over every project whose code the viewer may read (public; internal when
 * signed in; private at Reporter+) and whose merge requests feature is available to them
 * (access/features.ts).
 */
import { milestoneFilter } from "../activity/issuable-facts.js";
import { err, ok } from "neverthrow";
import * as z from "zod";
import { canReadMergeRequests } from "../access/features.js";
import { visibleGroup } from "../access/permissions.js";
import { isGroup } from "../accounts/groups.js";
import type { Project, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { offsetPage } from "../http/pagination-offset.js";
import { errors, type ForgekitError } from "../errors.js";
import { idOrPath, p, recordIdFrom } from "../http/params.js";
import { defineRoute, listHeaders, respond } from "../http/route-kit.js";
import type { AnyRoute } from "../http/router.js";
import type { Params, RouteAuth } from "../http/types.js";
import type { ProjectListFilter } from "../ports/store.js";
import type { MergeRequestListFilter, MergeRequestRecord } from "../ports/review-store.js";
import { labelNames, openProjectRepo, renderMergeRequests } from "./service.js";

/** At most this many projects are searched by one instance- or group-wide list. */
const MAX_PROJECTS = 10_000;

const raw = z.unknown().optional();
const FILTERS = {
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
  created_after: p.datetime().optional(),
  created_before: p.datetime().optional(),
  with_labels_details: p.bool().optional(),
  page: raw,
  per_page: raw,
};
type FilterParams = { [K in keyof typeof FILTERS]?: z.output<(typeof FILTERS)[K]> };

/** Projects matching `filter` whose code and merge requests `user` may read. */
async function readableProjects(config: ForgekitConfig, user: User | null, filter: Omit<ProjectListFilter, "viewer" | "now">): Promise<Project[]> {
  const now = config.clock.now();
  const out: Project[] = [];
  for (let page = 1; out.length < MAX_PROJECTS; page += 1) {
    const result = await config.store.projects.list({ ...filter, viewer: user === null ? null : { userId: user.id, admin: user.admin }, now, orderBy: "id", sort: "asc" }, { kind: "offset", page, perPage: 100 });
    for (const project of result.items) {
      if (await canReadMergeRequests(config.store, user, project, now)) out.push(project);
    }
    if (!("hasNext" in result) || !result.hasNext) break;
  }
  return out;
}

/** Reference `assignee_id` / `reviewer_id`: a user id, `None` or `Any` (case-insensitive); null when the value is none of these. */
export function personFilter(value: unknown): number | "none" | "any" | undefined | null {
  if (value === undefined) return undefined;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (/^(none|any)$/i.test(text)) return text.toLowerCase() as "none" | "any";
  return recordIdFrom(text);
}

export function listFilter(projectIds: number[], params: FilterParams): MergeRequestListFilter {
  const assignee = personFilter(params.assignee_id);
  const reviewer = personFilter(params.reviewer_id);
  const names = labelNames(params.labels);
  const labels = names === null || names.length === 0 ? undefined : names.length === 1 && /^(none|any)$/i.test(names[0] ?? "") ? ((names[0] ?? "").toLowerCase() as "none" | "any") : names;
  return {
    projectIds,
    ...(params.state === undefined || params.state === "all" || params.state === "locked" ? {} : { state: params.state }),
    ...(params.author_id === undefined ? {} : { authorId: params.author_id }),
    ...(assignee === undefined || assignee === null ? {} : { assigneeId: assignee }),
    ...(reviewer === undefined || reviewer === null ? {} : { reviewerId: reviewer }),
    ...(labels === undefined ? {} : { labels }),
    ...(params.milestone === undefined ? {} : { milestone: milestoneFilter(params.milestone) }),
    ...(params.source_branch === undefined ? {} : { sourceBranch: params.source_branch }),
    ...(params.target_branch === undefined ? {} : { targetBranch: params.target_branch }),
    ...(params.search === undefined || params.search === "" ? {} : { search: params.search }),
    ...(params.created_after === undefined ? {} : { createdAfter: new Date(params.created_after) }),
    ...(params.created_before === undefined ? {} : { createdBefore: new Date(params.created_before) }),
    orderBy: params.order_by ?? "created_at",
    sort: params.sort ?? "desc",
  };
}

/** The 400 of an `assignee_id` / `reviewer_id` that is neither an id nor None / Any. */
export function badPersonParam(params: { assignee_id?: unknown; reviewer_id?: unknown }): ForgekitError | null {
  if (personFilter(params.assignee_id) === null) return errors.invalidParam("assignee_id");
  if (personFilter(params.reviewer_id) === null) return errors.invalidParam("reviewer_id");
  return null;
}

/** Renders merge requests of several projects in list order. */
async function renderAcross(config: ForgekitConfig, projects: ReadonlyMap<number, Project>, mrs: readonly MergeRequestRecord[], labelDetails: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const mr of mrs) {
    const project = projects.get(mr.projectId);
    if (project === undefined) continue;
    out.push(...(await renderMergeRequests(config, project, await openProjectRepo(config, project), [mr], null, labelDetails)));
  }
  return out;
}

/** Builds the instance- and group-wide list routes. */
export function mergeRequestListRoutes(config: ForgekitConfig): AnyRoute[] {
  const { store, baseUrl } = config;
  const AUTH_OPTIONAL: RouteAuth = { mode: "optional" };
  return [
    defineRoute({
      method: "GET",
      path: "/merge_requests",
      auth: { mode: "required" },
      schema: z.object({ ...FILTERS, scope: p.enum(["created_by_me", "assigned_to_me", "reviews_for_me", "all", "created-by-me", "assigned-to-me", "reviews-for-me"]).optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const user = identity.user as User;
          const scope = (params.scope ?? "created_by_me").replace(/-/g, "_");
          const bad = badPersonParam(params);
          if (bad !== null) return err(bad);
          if (params.state === "locked") {
            const empty = { items: [], total: 0, hasNext: false };
            return ok({ body: [], headers: listHeaders(baseUrl, request, page.value, empty) });
          }
          const projects = await readableProjects(config, user, {});
          const filter = listFilter(projects.map((pr) => pr.id), params);
          if (scope === "created_by_me") filter.authorId = user.id;
          if (scope === "assigned_to_me") filter.assigneeId = user.id;
          if (scope === "reviews_for_me") filter.reviewerId = user.id;
          const result = await store.reviews.listMergeRequests(filter, page.value);
          return ok({ body: await renderAcross(config, new Map(projects.map((pr) => [pr.id, pr])), result.items, params.with_labels_details === true), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: "/groups/:id/merge_requests",
      auth: AUTH_OPTIONAL,
      schema: z.object({ ...FILTERS }),
      handler: ({ identity, pathParams, params, request }) =>
        respond(async () => {
          const ref = idOrPath(pathParams["id"] ?? "");
          const namespace = typeof ref === "number" ? await store.namespaces.findById(ref) : ref === null ? null : await store.namespaces.findByFullPath(ref);
          const found = isGroup(namespace) ? namespace : null;
          const group = await visibleGroup(store, identity.user, found, config.clock.now());
          if (group.isErr()) return err(group.error);
          const page = offsetPage(params as Params);
          if (page.isErr()) return err(page.error);
          const bad = badPersonParam(params);
          if (bad !== null) return err(bad);
          const projects = params.state === "locked" ? [] : await readableProjects(config, identity.user, { namespaceId: group.value.id, includeSubgroups: true });
          const result = await store.reviews.listMergeRequests(listFilter(projects.map((pr) => pr.id), params), page.value);
          return ok({ body: await renderAcross(config, new Map(projects.map((pr) => [pr.id, pr])), result.items, params.with_labels_details === true), headers: listHeaders(baseUrl, request, page.value, result) });
        }),
    }),
  ];
}
