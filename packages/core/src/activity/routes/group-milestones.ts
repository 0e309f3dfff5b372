/**
 * Group milestones over REST (reference `group_milestones.rb`, MilestonePolicy): list (`state`,
 * `search`, `title`, `iids[]`), show, create and update (`start_date`, `due_date`; update also
 * `state_event` close / activate), delete.
 * Reading needs a readable group (404 otherwise); writing Reporter or above on the group (403).
 */
import { err, ok, type Result } from "neverthrow";
import * as z from "zod";
import { isoDate } from "../../accounts/entities/time.js";
import { AccessLevel, type Group, type User } from "../../accounts/types.js";
import { hasGroupAccess } from "../../access/permissions.js";
import type { ForgekitConfig } from "../../config.js";
import { errors, type ForgekitError } from "../../errors.js";
import { p } from "../../http/params.js";
import { defineRoute, listHeaders, noneGiven, offsetOnly, PAGINATION_PARAMS, readPage, respond } from "../../http/route-kit.js";
import type { AnyRoute } from "../../http/router.js";
import type { GroupMilestoneListFilter } from "../../ports/group-milestones-store.js";
import { groupMilestoneEntity } from "../entities.js";
import type { GroupMilestonesService } from "../group-milestones.js";
import { readableGroup } from "./access.js";

const UPDATE_FIELDS = ["title", "description", "state_event", "due_date", "start_date"];

/** Builds the group milestone routes. */
export function groupMilestoneRoutes({ config, milestones }: { config: ForgekitConfig; milestones: GroupMilestonesService }): AnyRoute[] {
  const { store, baseUrl, clock } = config;

  const groupFor = async (user: User | null, ref: number | string, write: boolean): Promise<Result<Group, ForgekitError>> => {
    const now = clock.now();
    const group = await readableGroup(store, user, ref, now);
    if (group.isErr()) return err(group.error);
    if (write && !(await hasGroupAccess(store, user, group.value, AccessLevel.Reporter, now))) return err(errors.forbidden());
    return ok(group.value);
  };

  const path = "/groups/:id/milestones";
  const one = { id: p.id(), milestone_id: p.recordId() };

  return [
    defineRoute({
      method: "GET",
      path,
      auth: { mode: "optional" },
      schema: z.object({ ...PAGINATION_PARAMS, id: p.id(), state: p.enum(["active", "closed"]).optional(), search: p.string().optional(), title: p.string().optional(), iids: p.array(p.int()).optional() }),
      handler: ({ identity, params, request }) =>
        respond(async () => {
          const page = offsetOnly(readPage(params, null));
          if (page.isErr()) return err(page.error);
          const group = await groupFor(identity.user, params.id, false);
          if (group.isErr()) return err(group.error);
          const filter: GroupMilestoneListFilter = { groupId: group.value.id };
          if (params.state !== undefined) filter.state = params.state;
          if (params.search !== undefined && params.search !== "") filter.search = params.search;
          if (params.title !== undefined) filter.title = params.title;
          if (params.iids !== undefined) filter.iids = params.iids;
          const listed = await milestones.list(filter, page.value);
          if (listed.isErr()) return err(listed.error);
          return ok({ body: listed.value.items.map((m) => groupMilestoneEntity(m, group.value, baseUrl, isoDate(clock.now()))), headers: listHeaders(baseUrl, request, page.value, listed.value) });
        }),
    }),
    defineRoute({
      method: "GET",
      path: `${path}/:milestone_id`,
      auth: { mode: "optional" },
      schema: z.object(one),
      handler: ({ identity, params }) =>
        respond(async () => {
          const group = await groupFor(identity.user, params.id, false);
          if (group.isErr()) return err(group.error);
          const found = await milestones.find(group.value.id, params.milestone_id);
          return found.map((m) => ({ body: groupMilestoneEntity(m, group.value, baseUrl, isoDate(clock.now())) }));
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
          const group = await groupFor(user, params.id, true);
          if (group.isErr()) return err(group.error);
          const created = await milestones.create({ groupId: group.value.id, authorId: user.id, title: params.title,
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.start_date === undefined ? {} : { startDate: params.start_date }),
            ...(params.due_date === undefined ? {} : { dueDate: params.due_date }),
          });
          return created.map((m) => ({ status: 201, body: groupMilestoneEntity(m, group.value, baseUrl, isoDate(clock.now())) }));
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
          const group = await groupFor(user, params.id, true);
          if (group.isErr()) return err(group.error);
          const changes = {
            ...(params.title === undefined ? {} : { title: params.title }),
            ...(params.description === undefined ? {} : { description: params.description }),
            ...(params.state_event === undefined ? {} : { stateEvent: params.state_event }),
            ...(params.start_date === undefined ? {} : { startDate: params.start_date }),
            ...(params.due_date === undefined ? {} : { dueDate: params.due_date }),
          };
          const updated = await milestones.update(group.value.id, params.milestone_id, user.id, changes);
          return updated.map((m) => ({ body: groupMilestoneEntity(m, group.value, baseUrl, isoDate(clock.now())) }));
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
          const group = await groupFor(user, params.id, true);
          if (group.isErr()) return err(group.error);
          const removed = await milestones.remove(group.value.id, params.milestone_id, user.id);
          return removed.map(() => ({ status: 204 }));
        }),
    }),
  ];
}
