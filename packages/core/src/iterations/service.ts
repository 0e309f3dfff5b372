/**
 * Group iterations service (host API: `fk.iterations`): creation with the reference's validations,
 * and the listing behind `GET /groups/:id/iterations`. The tier gate (premium) guards the HTTP
 * endpoint; the service itself is the host's and the operator's, so data can be prepared on any tier.
 */
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import { canReadGroup } from "../access/permissions.js";
import { isGroup } from "../accounts/groups.js";
import { attempt, BLANK, fromStore, inTransaction, INVALID, Messages, TAKEN, tooLong } from "../accounts/service-kit.js";
import type { Group, User } from "../accounts/types.js";
import type { ForgekitConfig } from "../config.js";
import { errors, type ForgekitError } from "../errors.js";
import { recordRef } from "../ids.js";
import type { IterationListFilter } from "../ports/iterations-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "../ports/pagination.js";
import { ITERATION_STATE_FILTERS, iterationState, statesOf, today, type Iteration, type IterationState, type IterationStateFilter } from "./types.js";

/** Input of {@link IterationsService.create}. */
export interface CreateIterationInput {
  groupId: number;
  title: string;
  description?: string;
  /** `YYYY-MM-DD`. */
  startDate: string;
  /** `YYYY-MM-DD`, not before `startDate`. */
  dueDate: string;
}

/** Filters of {@link IterationsService.list} (the query of `GET /groups/:id/iterations`). */
export interface IterationListQuery {
  /** Default `all`; `started` = `current` (deprecated alias). */
  state?: IterationStateFilter;
  /** Case-insensitive substring of the title. */
  search?: string;
  /** Inclusive bounds on `updatedAt`. */
  updatedBefore?: Date;
  updatedAfter?: Date;
}

/** Options of {@link IterationsService.groupsFor}. */
export interface GroupsForOptions {
  /** Who is asking; `undefined` = the operator (sees every group), `null` = anonymous. */
  viewer?: User | null;
  /** Add the group's ancestors the viewer can read (default true, like the endpoint). */
  includeAncestors?: boolean;
}

/** Iterations service. */
export interface IterationsService {
  /**
   * Creates an iteration with the group's next iid. `validation` errors (400 bodies): `title`
   * blank, too long or taken in the group; `start_date`/`due_date` blank, malformed, more than 500
   * years ahead, or due before start; `base` when the dates overlap another iteration of the group.
   * `not_found("Group")` for an unknown group.
   */
  create(input: CreateIterationInput): ResultAsync<Iteration, ForgekitError>;
  /** `record_not_found` when missing. */
  findById(id: number): ResultAsync<Iteration, ForgekitError>;
  /**
   * The group (id or full path) and, unless `includeAncestors` is false, its ancestors the viewer
   * can read, the group first. `not_found("Group")` when the group is unknown or invisible.
   */
  groupsFor(group: number | string, options?: GroupsForOptions): ResultAsync<Group[], ForgekitError>;
  /** Iterations of the groups, ordered by due date, title, id. `invalid_param("state")` for an unknown state. */
  list(groupIds: readonly number[], query: IterationListQuery, page: OffsetPageRequest): ResultAsync<OffsetPageResult<Iteration>, ForgekitError>;
  /** The iteration's state today (by the configured clock, UTC). */
  stateOf(iteration: Pick<Iteration, "startDate" | "dueDate">): IterationState;
}

/** Reference messages. */
export const ITERATION_MESSAGES = {
  overlap: "Dates cannot overlap with other existing Iterations within this group",
  dueBeforeStart: "must be greater than start date",
  tooFar: "cannot be more than 500 years in the future",
} as const;

const TITLE_MAX = 255;
const DESCRIPTION_MAX = 1_048_576;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar day `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** Builds the iterations service. */
export function iterationsService(config: ForgekitConfig): IterationsService {
  const { store, clock } = config;
  return {
    create: (input) =>
      checkNew(input, today(clock.now())).asyncAndThen((checked) =>
        inTransaction(store, async (tx) => {
          if (!isGroup(await tx.namespaces.findById(checked.groupId))) return err(errors.notFound("Group"));
          const result = await tx.iterations.create(checked, clock.now());
          if ("created" in result) return ok(result.created);
          return err(result.refused === "dates_overlap" ? errors.validation({ base: [ITERATION_MESSAGES.overlap] }) : errors.validation({ title: [TAKEN] }));
        }),
      ),
    findById: (id) => fromStore(store.iterations.findById(id)).andThen((found) => (found === null ? err(errors.recordNotFound()) : ok(found))),
    groupsFor: (group, options = {}) =>
      attempt(async () => {
        const ref = recordRef(group);
        const found = ref === null ? null : typeof ref === "number" ? await store.namespaces.findById(ref) : await store.namespaces.findByFullPath(ref);
        const now = clock.now();
        const readable = async (g: Group) => options.viewer === undefined || (await canReadGroup(store, options.viewer, g, now));
        if (!isGroup(found) || !(await readable(found))) return err(errors.notFound("Group"));
        const groups: Group[] = [found];
        if (options.includeAncestors !== false) {
          for (const ancestor of await store.namespaces.ancestors(found.id)) if (isGroup(ancestor) && (await readable(ancestor))) groups.push(ancestor);
        }
        return ok(groups);
      }),
    list: (groupIds, query, page) => {
      const state = query.state ?? "all";
      if (!(ITERATION_STATE_FILTERS as readonly string[]).includes(state)) return errAsync(errors.invalidParam("state", "does not have a valid value"));
      const filter: IterationListFilter = { groupIds, today: today(clock.now()) };
      if (state !== "all") filter.states = statesOf(state);
      if (query.search !== undefined && query.search !== "") filter.search = query.search;
      if (query.updatedBefore !== undefined) filter.updatedBefore = query.updatedBefore;
      if (query.updatedAfter !== undefined) filter.updatedAfter = query.updatedAfter;
      return fromStore(store.iterations.list(filter, page));
    },
    stateOf: (iteration) => iterationState(iteration, today(clock.now())),
  };
}

/** The reference's model validations, collected as `field → messages`. */
function checkNew(input: CreateIterationInput, day: string): Result<CreateIterationInput & { description: string }, ForgekitError> {
  const messages = new Messages();
  const title = typeof input.title === "string" ? input.title.trim() : "";
  if (title === "") messages.add("title", BLANK);
  else if (title.length > TITLE_MAX) messages.add("title", tooLong(TITLE_MAX));
  const description = input.description ?? "";
  if (description.length > DESCRIPTION_MAX) messages.add("description", tooLong(DESCRIPTION_MAX));
  const limit = `${String(Number(day.slice(0, 4)) + 500).padStart(4, "0")}${day.slice(4)}`;
  const dates = { start_date: input.startDate, due_date: input.dueDate };
  for (const [field, value] of Object.entries(dates)) {
    if (typeof value !== "string" || value.trim() === "") messages.add(field, BLANK);
    else if (!isCalendarDate(value)) messages.add(field, INVALID);
    else if (value > limit) messages.add(field, ITERATION_MESSAGES.tooFar);
  }
  if (messages.empty && input.dueDate < input.startDate) messages.add("due_date", ITERATION_MESSAGES.dueBeforeStart);
  return messages.result({ ...input, title, description });
}
