/**
 * Group iterations (spec "Group iteration", premium tier): the record and its state, which is
 * computed from the dates against today's date of the injected clock, never stored.
 */

/** An iteration of a group. Dates are calendar days `YYYY-MM-DD`. */
export interface Iteration {
  id: number;
  /** Number within the group, from 1 in creation order. */
  iid: number;
  /** Position within the group in start-date order, from 1 (reference: the cadence sequence). */
  sequence: number;
  groupId: number;
  title: string;
  description: string;
  startDate: string;
  dueDate: string;
  createdAt: Date;
  updatedAt: Date;
}

/** States of an iteration; the entity shows the integer (reference `STATE_ENUM_MAP`). */
export const ITERATION_STATES = { upcoming: 1, current: 2, closed: 3 } as const;
/** The state of an iteration, from its dates: upcoming, current or closed. */
export type IterationState = keyof typeof ITERATION_STATES;

/** Values of the `state` filter; `started` is the deprecated alias of `current` (spec Versioning 6). */
export const ITERATION_STATE_FILTERS = ["opened", "upcoming", "current", "closed", "all", "started"] as const;
/** A `state` value the iteration list accepts as a filter (an iteration state, or `opened`, `started` or `all`). */
export type IterationStateFilter = (typeof ITERATION_STATE_FILTERS)[number];

/** `YYYY-MM-DD` of the UTC day of `now`: the "today" iteration states are computed against. */
export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Reference `compute_state`: upcoming while the start date is after today, closed once the due date
 * is before today, current from the start date through the due date inclusive.
 */
export function iterationState(iteration: Pick<Iteration, "startDate" | "dueDate">, day: string): IterationState {
  if (iteration.startDate > day) return "upcoming";
  if (iteration.dueDate < day) return "closed";
  return "current";
}

/** The states a filter value selects: `opened` = upcoming + current; `all` = every state. */
export function statesOf(filter: IterationStateFilter): IterationState[] {
  switch (filter) {
    case "opened":
      return ["upcoming", "current"];
    case "started":
    case "current":
      return ["current"];
    case "upcoming":
      return ["upcoming"];
    case "closed":
      return ["closed"];
    case "all":
      return ["upcoming", "current", "closed"];
  }
}
