/**
 * Storage port of group milestones (reference `/groups/:id/milestones`): iid and unique title per
 * group, active → closed → active. Reached as `Store.activity.groupMilestones`; "not found" is
 * `null` / `false`, infrastructure failures reject.
 */
import type { MilestoneState } from "../activity/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** A milestone of a group (its projects' issues cannot point at it yet). */
export interface GroupMilestone {
  id: number;
  groupId: number;
  /** 1, 2, 3… per group. */
  iid: number;
  title: string;
  description: string;
  state: MilestoneState;
  /** `YYYY-MM-DD` or null. */
  startDate: string | null;
  /** `YYYY-MM-DD` or null, after `startDate` when both are set. */
  dueDate: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What creating a group milestone takes; the store assigns its `iid` within the group. */
export interface NewGroupMilestone {
  groupId: number;
  title: string;
  description: string;
  startDate: string | null;
  dueDate: string | null;
}

/** A change to a group milestone: the fields given are written, the others kept. */
export type GroupMilestonePatch = Partial<{ title: string; description: string; state: MilestoneState; startDate: string | null; dueDate: string | null; updatedAt: Date }>;

/** Filters of the group milestone list (group, state, search, title, iids). */
export interface GroupMilestoneListFilter {
  groupId: number;
  state?: MilestoneState;
  /** Case-insensitive substring of the title or the description. */
  search?: string;
  title?: string;
  iids?: readonly number[];
}

/** The store's group milestones: create (numbering them per group), find, update, list and remove. */
export interface GroupMilestoneRepository {
  /**
   * Inserts an active milestone with the group's next iid; `null` when the group already has one
   * with that title (case-sensitive). Concurrent creates in one group serialise on the group row.
   */
  create(input: NewGroupMilestone, now: Date): Promise<GroupMilestone | null>;
  findById(id: number): Promise<GroupMilestone | null>;
  /** The updated row; `null` for an unknown id or a title another milestone of the group has. */
  update(id: number, patch: GroupMilestonePatch): Promise<GroupMilestone | null>;
  /** The group's milestones matching the filter, newest iid first. */
  list(filter: GroupMilestoneListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<GroupMilestone>>;
  /** `false` when the id is unknown. */
  remove(id: number): Promise<boolean>;
}
