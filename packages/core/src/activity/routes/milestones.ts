/**
 * Project milestones over REST (reference `lib/api/milestones.rb` / `project_milestones.rb`,
 * MilestonePolicy): list (`state`, `search`, `title`, `iids[]`), show, create, update
 * (`state_event` close / activate), delete, and the milestone's issues. `:milestone_id` is the
 * milestone's id, as in the reference. Reading needs a readable project; writing Reporter or above
 * (403 otherwise).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { AccessLevel, type Project, type User } from "../../accounts/types.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, noneGiven, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { MilestoneListFilter } from "../../ports/issue-details-store.js";
import { milestoneEntity } from "../entities.js";
import type { MilestoneChanges, MilestonesService } from "../milestones.js";
import type { Milestone } from "../types.js";
import { confidentialAccess, levelOn, readableProject } from "./access.js";
import { renderIssues } from "./issue-views.js";
import { isoDate } from "../../accounts/entities/time.js";

/** What the milestone routes are built from. */
export interface MilestoneRouteDeps {
  config: ForgekitConfig;
  milestones: MilestonesService;
}

const UPDATE_FIELDS = ["title", "description", "state_event", "due_date", "start_date"];

/** Builds the project milestone routes. */
export function milestoneRoutes({ config, milestones }: MilestoneRouteDeps): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  /** The readable project and the user's level; with `write`, 403 below Reporter. */
  const projectFor = async (user: User | null, ref: number | string, write: boolean): Promise<Result<{ project: Project; level: number }, ForgekitError>> => {
    const now = clock.now();
    const project = await readableProject(store, user, ref, now);
    if (project.isErr()) return err(project.error);
    const level = await levelOn(store, user, project.value, now);
    if (write && level < AccessLevel.Reporter) return err(errors.forbidden());
    return ok({ project: project.value, level });
  };

  const milestoneIn = async (project: Project, id: number): Promise<Result<Milestone, ForgekitError>> => {
    const milestone = await store.activity.milestones.findById(id);
    return milestone !== null && milestone.projectId === project.id ? ok(milestone) : err(errors.notFound("Milestone"));
  };

  const path = "/projects/:id/milestones";
  const one = { id: p.id(), milestone_id: p.recordId() };

  return [
    defineRoute({
      method: "GET",
      path,
      auth: { mode: "optional" },
      schema: z.object({
        ...PAGINATION_PARAMS,
        id: p.id(),
        state: p.enum(["active", "closed"]).optional(),
        search: p.string().optional(),
        title: p.string().optional(),
        iids: p.array(p.int()).optional(),
        include_ancestors: p.bool().optional(),
      }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const found = await projectFor(identity.user, params.id, false);
          if (found.isErr()) return err(found.error);
          const project = found.value.project;
          const filter: MilestoneListFilter = { projectId: project.id };
          if (params.state !== undefined) filter.state = params.state;
          if (params.search !== undefined && params.search !== "") filter.search = params.search;
          if (params.title !== undefined) filter.title = params.title;
          if (params.iids !== undefined) filter.iids = params.iids;
          const listed = await milestones.list(filter, page.value);
          if (listed.isErr()) return err(listed.error);
          return ok({ body: listed.value.items.map((m) => milestoneEntity(m, project, baseUrl, isoDate(clock.now()))), headers: listHeaders(baseUrl, request, page.value, listed.value) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${path}/:milestone_id`,
      auth: { mode: "optional" },
      schema: z.object(one),
      handler: ({ identity, params }) =>
        respond(async () => {
          const found = await projectFor(identity.user, params.id, false);
          if (found.isErr()) return err(found.error);
          const milestone = await milestoneIn(found.value.project, params.milestone_id);
          return milestone.map((m) => ({ body: milestoneEntity(m, found.value.project, baseUrl, isoDate(clock.now())) }));
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${path}/:milestone_id/issues`,
      auth: { mode: "optional" },
      schema: z.object({ ...PAGINATION_PARAMS, ...one }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const found = await projectFor(identity.user, params.id, false);
          if (found.isErr()) return err(found.error);
          const { project } = found.value;
          const milestone = await milestoneIn(project, params.milestone_id);
          if (milestone.isErr()) return err(milestone.error);
          const access = await confidentialAccess(store, identity.user, clock.now(), [project.id]);
          // Titles are unique per project, so the title names exactly this milestone.
          const listed = await store.activity.issueDetails.list({ projectIds: [project.id], confidentialAccess: access, milestone: { title: milestone.value.title }, orderBy: "created_at", sort: "desc" }, page.value);
          const body = await renderIssues(store, baseUrl, listed.items, { kind: "project" }, [project], clock.now(), identity.user);
          return ok({ body, headers: listHeaders(baseUrl, request, page.value, listed) });
        }),
    }),
    defineRoute({
      method: "POST",
      path,
      auth: { mode: "required" },
      schema: z.object({ id: p.id(), title: p.string(), description: p.string().optional(), due_date: p.date().optional(), start_date: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const found = await projectFor(user, params.id, true);
          if (found.isErr()) return err(found.error);
          const created = await milestones.create({
            projectId: found.value.project.id,
            authorId: user.id,
            title: params.title,
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.start_date === undefined ? {} : { startDate: params.start_date }),
            ...(params.due_date === undefined ? {} : { dueDate: params.due_date }),
          });
          return created.map((m) => ({ status: 201, body: milestoneEntity(m, found.value.project, baseUrl, isoDate(clock.now())) }));
        }),
    }),
    defineRoute({
      method: "PUT",
      path: `${path}/:milestone_id`,
      auth: { mode: "required" },
      schema: z.object({ ...one, title: p.string().optional(), description: p.string().optional(), state_event: p.enum(["close", "activate"]).optional(), due_date: p.date().optional(), start_date: p.date().optional() }),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const missing = noneGiven(params, UPDATE_FIELDS);
          if (missing !== null) return err(missing);
          const found = await projectFor(user, params.id, true);
          if (found.isErr()) return err(found.error);
          const milestone = await milestoneIn(found.value.project, params.milestone_id);
          if (milestone.isErr()) return err(milestone.error);
          const changes: MilestoneChanges = {
            ...(params.title === undefined ? {} : { title: params.title }),
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.state_event === undefined ? {} : { stateEvent: params.state_event }),
            ...(params.start_date === undefined ? {} : { startDate: params.start_date }),
            ...(params.due_date === undefined ? {} : { dueDate: params.due_date }),
          };
          const updated = await milestones.update(found.value.project.id, milestone.value.iid, user.id, changes);
          return updated.map((m) => ({ body: milestoneEntity(m, found.value.project, baseUrl, isoDate(clock.now())) }));
        }),
    }),
    defineRoute({
      method: "DELETE",
      path: `${path}/:milestone_id`,
      auth: { mode: "required" },
      schema: z.object(one),
      handler: ({ identity, params }) =>
        respond(async () => {
          const user = identity.user;
          if (user === null) return err(errors.unauthorized());
          const found = await projectFor(user, params.id, true);
          if (found.isErr()) return err(found.error);
          const milestone = await milestoneIn(found.value.project, params.milestone_id);
          if (milestone.isErr()) return err(milestone.error);
          const removed = await milestones.remove(found.value.project.id, milestone.value.iid, user.id);
          return removed.map(() => ({ status: 204 }));
        }),
    }),
  ];
}
