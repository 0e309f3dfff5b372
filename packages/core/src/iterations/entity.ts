/** JSON shape of a group iteration (spec "Group iteration"; reference `API::Entities::Iteration`). */
import type { Group } from "../accounts/types.js";
import { ITERATION_STATES, type Iteration, type IterationState } from "./types.js";

/**
 * Exactly the spec's fields. `state` is the integer (upcoming 1, current 2, closed 3) of the state
 * on the day of the request; `web_url` uses the id, not the iid, like the reference's route helper.
 */
export function iterationEntity(iteration: Iteration, state: IterationState, group: Pick<Group, "fullPath">, baseUrl: string) {
  return {
    id: iteration.id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: iteration.description,
    state: ITERATION_STATES[state],
    created_at: iteration.createdAt.toISOString(),
    updated_at: iteration.updatedAt.toISOString(),
    due_date: iteration.dueDate,
    start_date: iteration.startDate,
    web_url: `${baseUrl}/groups/${group.fullPath}/-/iterations/${iteration.id}`,
  };
}
