/**
 * Records of the activity domain: the minimal issues, merge requests, milestones, snippets and notes
 * that events are about (times are `Date`, UTC). Issues, merge requests and milestones carry an `id`
 * unique across projects and an `iid` unique within their project (spec "Identifiers: id and iid").
 */
import type { Visibility } from "../accounts/types.js";

/** Whether an issue is open or closed. */
export type IssueState = "opened" | "closed";

/** An issue of a project, numbered per project by `iid`. */
export interface Issue {
  id: number;
  projectId: number;
  /** 1, 2, 3… per project. */
  iid: number;
  title: string;
  description: string;
  /** Confidential issues (and their notes and events) are hidden from non-members and Guests. */
  confidential: boolean;
  state: IssueState;
  authorId: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

/** Whether a merge request is open, was closed without merging, or was merged. */
export type MergeRequestState = "opened" | "closed" | "merged";

/** A merge request of a project, numbered per project by `iid`, from a source branch into a target branch. */
export interface MergeRequest {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  description: string;
  state: MergeRequestState;
  authorId: number;
  sourceBranch: string;
  targetBranch: string;
  createdAt: Date;
  updatedAt: Date;
  mergedAt: Date | null;
  closedAt: Date | null;
}

/** Whether a milestone is active or closed. */
export type MilestoneState = "active" | "closed";

/** A project milestone, numbered per project by `iid`. */
export interface Milestone {
  id: number;
  projectId: number;
  iid: number;
  title: string;
  description: string;
  state: MilestoneState;
  /** `YYYY-MM-DD`, or null (reference `start_date`). */
  startDate: string | null;
  /** `YYYY-MM-DD`, after `startDate` when both are set, or null (reference `due_date`). */
  dueDate: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A project snippet (`projectId` set) or a personal snippet (`projectId` null). */
export interface Snippet {
  id: number;
  projectId: number | null;
  authorId: number;
  title: string;
  fileName: string;
  content: string;
  visibility: Visibility;
  createdAt: Date;
  updatedAt: Date;
}

/** What a note can be attached to. */
export type NoteableType = "Issue" | "MergeRequest" | "Snippet";

/** A comment on an issue, merge request or snippet (or a system note that records a change). */
export interface Note {
  id: number;
  /** The noteable's project; null for notes on personal snippets. */
  projectId: number | null;
  noteableType: NoteableType;
  noteableId: number;
  authorId: number;
  body: string;
  /** Notes the system wrote (e.g. "closed"); they record no event (reference: only user notes do). */
  system: boolean;
  createdAt: Date;
  updatedAt: Date;
}
