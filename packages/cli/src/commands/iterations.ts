/** `forgekit iterations create|list`: group iterations over `fk.iterations` (the operator sees every group). */
import { okAsync, type ResultAsync } from "neverthrow";
import { ITERATION_STATE_FILTERS, type Forgekit, type ForgekitError, type Iteration, type IterationListQuery } from "@forgekit/core";
import type { Output } from "../output.js";
import { oneOf } from "../values.js";
import type { Command } from "./context.js";

/** An iteration as printed: the API's fields, with the state by name. */
function iterationRecord(fk: Forgekit, iteration: Iteration): Record<string, unknown> {
  return {
    id: iteration.id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: iteration.description,
    state: fk.iterations.stateOf(iteration),
    start_date: iteration.startDate,
    due_date: iteration.dueDate,
    created_at: iteration.createdAt.toISOString(),
    updated_at: iteration.updatedAt.toISOString(),
  };
}

function iterationLine(fk: Forgekit, iteration: Iteration): string {
  return `iteration ${iteration.id} *iteration:${iteration.iid} "${iteration.title}" ${iteration.startDate}..${iteration.dueDate} (${fk.iterations.stateOf(iteration)})`;
}

const iterationsCreate: Command = {
  name: "iterations create",
  summary: "create an iteration in a group (dates must not overlap the group's other iterations)",
  options: {
    group: { type: "string", placeholder: "<group>", description: "group id or full path", required: true },
    title: { type: "string", placeholder: "<title>", description: "title, unique in the group", required: true },
    "start-date": { type: "string", placeholder: "<YYYY-MM-DD>", description: "first day", required: true },
    "due-date": { type: "string", placeholder: "<YYYY-MM-DD>", description: "last day (not before the start date)", required: true },
    description: { type: "string", placeholder: "<text>", description: "description" },
  },
  notes: ["Example:", "  forgekit iterations create --group demo --title \"Sprint 1\" --start-date 2025-01-06 --due-date 2025-01-19"],
  run: ({ fk }, args) => {
    const description = args.string("description");
    return fk.groups
      .findByIdOrPath(args.required("group"))
      .andThen((group) =>
        fk.iterations.create({
          groupId: group.id,
          title: args.required("title"),
          startDate: args.required("start-date"),
          dueDate: args.required("due-date"),
          ...(description === undefined ? {} : { description }),
        }),
      )
      .map((iteration) => ({ json: iterationRecord(fk, iteration), text: [`created ${iterationLine(fk, iteration)}`] }));
  },
};

/** Every page of the listing (100 at a time). */
function listAll(fk: Forgekit, groupIds: number[], query: IterationListQuery): ResultAsync<Iteration[], ForgekitError> {
  const from = (page: number, found: Iteration[]): ResultAsync<Iteration[], ForgekitError> =>
    fk.iterations.list(groupIds, query, { kind: "offset", page, perPage: 100 }).andThen((result) => {
      const all = [...found, ...result.items];
      return result.hasNext ? from(page + 1, all) : okAsync(all);
    });
  return from(1, []);
}

const iterationsList: Command = {
  name: "iterations list",
  summary: "list a group's iterations and its ancestors' (by due date)",
  options: {
    group: { type: "string", placeholder: "<group>", description: "group id or full path", required: true },
    state: { type: "string", placeholder: "<state>", description: "opened, upcoming, current, closed or all (default)" },
    search: { type: "string", placeholder: "<text>", description: "case-insensitive part of the title" },
    "no-ancestors": { type: "boolean", description: "leave out the ancestors' iterations" },
  },
  run: ({ fk }, args) => {
    const state = args.string("state");
    const search = args.string("search");
    const query: IterationListQuery = {
      ...(state === undefined ? {} : { state: oneOf("--state", state, ITERATION_STATE_FILTERS) }),
      ...(search === undefined ? {} : { search }),
    };
    return fk.iterations
      .groupsFor(args.required("group"), { includeAncestors: !args.flag("no-ancestors") })
      .andThen((groups) => listAll(fk, groups.map((g) => g.id), query))
      .map(
        (iterations): Output => ({
          json: iterations.map((iteration) => iterationRecord(fk, iteration)),
          text: iterations.length === 0 ? ["no iterations"] : iterations.map((iteration) => iterationLine(fk, iteration)),
        }),
      );
  },
};

/** The iterations commands. */
export const iterationsCommands: Command[] = [iterationsCreate, iterationsList];
