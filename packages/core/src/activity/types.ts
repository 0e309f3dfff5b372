/**
 * Records of the activity domain: the minimal issues, merge requests, milestones, snippets and notes
 * that events are about (times are `Date`, UTC). Issues, merge requests and milestones carry an `id`
 * unique across projects and an `iid` unique within their project (spec "Identifiers: id and iid").
 */
import type { Visibility } from "../accounts/types.js";

/**
 * Where a record came from (reference `Importable#imported_from`): `none` for records made here, else
 * the import source that wrote it (`extforge`, `extserver`, the project's `import_type`).
 */
export type ImportedFrom = "none" | "extforge" | "extserver";

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
  /** `YYYY-MM-DD`, or null (migration 0033). */
  dueDate: string | null;
  /**
   * Whether only project members may comment (reference `discussion_locked`); null until first set
   * (migration 0037).
   */
  discussionLocked: boolean | null;
  /** The import that wrote the issue, `none` for issues made here (migration 0032). */
  importedFrom: ImportedFrom;
}

/** Whether a merge request is open, was closed without merging, or was merged. */
export type MergeRequestState = "opened" | "closed" | "merged";

/** Reference `MergeRequest#draft?`: a title starting with `Draft:`, `[Draft]`, `(Draft)` or `Draft - `. */
export const isDraftTitle = (title: string) => /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s)/i.test(title);

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
  /** The import that wrote the snippet (a gist import: `extforge`), `none` for snippets made here (migration 0032). */
  importedFrom: ImportedFrom;
}

/** What a note can be attached to. */
export type NoteableType = "Issue" | "MergeRequest" | "Snippet";

/**
 * Reference note classes: `null` a plain note (an individual-note discussion of its own),
 * `DiscussionNote` a note of a threaded discussion, `DiffNote` a threaded note on a diff line.
 */
export type NoteType = "DiscussionNote" | "DiffNote" | null;

/** One end of a multi-line diff note's range (reference `position[line_range][start|end]`). */
export interface DiffLineRangeEnd {
  lineCode: string | null;
  type: string | null;
  oldLine: number | null;
  newLine: number | null;
}

/** Where a diff note sits (reference `Gitlab::Diff::Position`, `position_type` `text`). */
export interface DiffPosition {
  baseSha: string | null;
  startSha: string | null;
  headSha: string | null;
  positionType: "text";
  oldPath: string | null;
  newPath: string | null;
  oldLine: number | null;
  newLine: number | null;
  lineRange: { start: DiffLineRangeEnd | null; end: DiffLineRangeEnd | null } | null;
}

/** A comment on an issue, merge request or snippet (or a system note that records a change). */
export interface Note {
  id: number;
  /** 40 hex digits shared by the notes of one discussion; an individual note has its own. */
  discussionId: string;
  type: NoteType;
  /** Where a `DiffNote` sits; null for other notes. */
  position: DiffPosition | null;
  /** The commit a diff note was made on (reference `commit_id`), when known. */
  commitId: string | null;
  /** When and by whom a resolvable note was resolved (both null: unresolved). */
  resolvedAt: Date | null;
  resolvedById: number | null;
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
  /** The import that wrote the note, `none` for notes made here (migration 0032). */
  importedFrom: ImportedFrom;
}
