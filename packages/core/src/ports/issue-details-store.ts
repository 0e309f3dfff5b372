/**
 * Storage port of what the REST issue resources add to an issue (DESIGN §5): assignees, milestone,
 * labels, the filtered issue list, deletion; and edits of notes and milestones. Reached as
 * `Store.activity.issueDetails`. The general contract of ports/store.ts applies: "not found" is
 * `null` / `false`, infrastructure failures reject.
 */
import type { Issue, IssueState, Milestone, MilestoneState, Note, NoteableType } from "../activity/types.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";

/** Orders of {@link IssueListFilter} (reference `order_by`); ties break by id in the same direction. */
export type IssueOrder = "created_at" | "updated_at" | "title";

/** Which confidential issues a list may show. */
export type ConfidentialAccess =
  /** Every confidential issue (administrators). */
  | { all: true }
  /**
   * Confidential issues of `projectIds` (the viewer is Reporter or above there), and those the
   * viewer authored or is assigned to; `userId` null (anonymous) sees none outside `projectIds`.
   */
  | { all: false; userId: number | null; projectIds: readonly number[] };

/** The filters of `GET /issues`, `/groups/:id/issues`, `/projects/:id/issues` (reference IssuesFinder). */
export interface IssueListFilter {
  /** Only issues of these projects (the caller resolved visibility); empty → an empty page. */
  projectIds: readonly number[];
  confidentialAccess: ConfidentialAccess;
  state?: IssueState;
  authorId?: number;
  /** A user id, or "none" (no assignee) / "any" (at least one). */
  assignee?: number | "none" | "any";
  /** Issues carrying every one of these label names (exact names); or "none" / "any". */
  labels?: readonly string[] | "none" | "any";
  /** Issues with the milestone of this title, with none, or with any. */
  milestone?: { title: string } | "none" | "any";
  /** Case-insensitive substring of the title or the description. */
  search?: string;
  confidential?: boolean;
  iids?: readonly number[];
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  orderBy: IssueOrder;
  sort: "asc" | "desc";
}

/** What a milestone list matches (reference MilestonesFinder). */
export interface MilestoneListFilter {
  projectId: number;
  state?: MilestoneState;
  /** Case-insensitive substring of the title or the description. */
  search?: string;
  /** Exact title. */
  title?: string;
  iids?: readonly number[];
}

/** Issue assignees, milestone and labels; filtered lists; edits of notes and milestones. */
export interface IssueDetailsRepository {
  /** Replaces the issue's assignees (an empty list removes them all). The users must exist. */
  setAssignees(issueId: number, userIds: readonly number[]): Promise<void>;
  /** Assignee user ids of each issue, by user id; issues without assignees map to `[]`. */
  assigneesOf(issueIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Sets the issue's milestone (null removes it). The milestone must exist. */
  setMilestone(issueId: number, milestoneId: number | null): Promise<void>;
  /** The milestone id of each issue (null when it has none). */
  milestonesOf(issueIds: readonly number[]): Promise<Map<number, number | null>>;
  /** Takes the labels off the issue; returns how many were on it. */
  unlinkLabels(issueId: number, labelIds: readonly number[]): Promise<number>;
  /** Label names of each issue, by name (code-point order). */
  labelNamesOf(issueIds: readonly number[]): Promise<Map<number, string[]>>;
  /** One page of issues matching every filter, in `orderBy`/`sort` order, ties by id. */
  list(filter: IssueListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Issue>>;
  /** Deletes the issue with its notes, assignees and label links; `false` when the id is unknown. */
  removeIssue(issueId: number): Promise<boolean>;

  /** Sets a note's body and `updatedAt`; the updated note, or null for an unknown id. */
  updateNote(noteId: number, body: string, now: Date): Promise<Note | null>;
  /** Deletes a note; `false` when the id is unknown. */
  removeNote(noteId: number): Promise<boolean>;
  /** Notes on one noteable, by `orderBy` then id in `sort` direction (system notes included). */
  listNotes(noteableType: NoteableType, noteableId: number, orderBy: "created_at" | "updated_at", sort: "asc" | "desc", page: OffsetPageRequest): Promise<OffsetPageResult<Note>>;

  /** A project's milestones matching the filter, by iid descending (reference default order). */
  listMilestones(filter: MilestoneListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Milestone>>;
  /** Sets a milestone's description and `updatedAt`; null for an unknown id. */
  describeMilestone(milestoneId: number, description: string, now: Date): Promise<Milestone | null>;
  /** Deletes a milestone; its issues keep no milestone. `false` when the id is unknown. */
  removeMilestone(milestoneId: number): Promise<boolean>;
}
