/** Storage port of group iterations (spec "Group iteration"). */
import type { Iteration, IterationState } from "../iterations/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** What creating a group iteration takes: its group, title, description and dates. */
export interface NewIteration {
  groupId: number;
  title: string;
  description: string;
  /** `YYYY-MM-DD`, not after `dueDate`. */
  startDate: string;
  dueDate: string;
}

/** Outcome of {@link IterationRepository.create}. */
export type IterationCreateResult =
  | { created: Iteration }
  /** Another iteration of the group shares at least one day with the new one's dates. */
  | { refused: "dates_overlap" }
  /** Another iteration of the group has exactly this title. */
  | { refused: "title_taken" };

/** Filters of the iteration list: groups, state (by today's date), search and update times. */
export interface IterationListFilter {
  /** Groups whose iterations are listed (empty → nothing). */
  groupIds: readonly number[];
  /** `YYYY-MM-DD`: the day states are computed against. */
  today: string;
  /** Only iterations in these states on `today`; undefined = every state. */
  states?: readonly IterationState[];
  /** Case-insensitive substring of the title. */
  search?: string;
  /** Only iterations updated at or before this instant. */
  updatedBefore?: Date;
  /** Only iterations updated at or after this instant. */
  updatedAfter?: Date;
}

/** The store's group iterations: create (numbering them per group), find by id and list. */
export interface IterationRepository {
  /**
   * Creates an iteration with the group's next iid. Atomic per group: the overlap and title checks
   * and the iid assignment see every committed iteration of the group, so of two racing creates
   * with overlapping dates exactly one succeeds, and iids never repeat. Dates overlap when
   * `a.start <= b.due && b.start <= a.due` (whole days, inclusive).
   */
  create(input: NewIteration, now: Date): Promise<IterationCreateResult>;
  findById(id: number): Promise<Iteration | null>;
  /** Ordered by due date, then title (code-point order), then id, ascending (reference IterationsFinder). */
  list(filter: IterationListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Iteration>>;
}
