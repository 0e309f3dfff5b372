/**
 * Storage ports of the activity domain and its events (DESIGN §5): one repository per aggregate,
 * gathered under `Store.activity`. The general contract of ports/store.ts applies: "not found" is
 * `null`, infrastructure failures reject, and the objects `transaction` hands out run inside it.
 */
import type { Visibility } from "../accounts/types.js";
import type { ProjectFeatures } from "../accounts/project-features.js";
import type { ImportedFrom, Issue, IssueState, MergeRequest, MergeRequestState, Milestone, MilestoneState, Note, NoteableType, NoteType, DiffPosition, Snippet } from "../activity/types.js";
import type { Event, EventAction, EventAudience, EventTargetType, NewEvent } from "../events/types.js";
import type { GroupMilestoneRepository } from "./group-milestones-store.js";
import type { IssueDetailsRepository } from "./issue-details-store.js";
import type { OffsetPageRequest, OffsetPageResult } from "./pagination.js";
import type { Viewer } from "../domain/viewer.js";

/** What creating an issue takes; the store assigns its `iid` within the project. */
export interface NewIssue {
  projectId: number;
  title: string;
  description: string;
  confidential: boolean;
  authorId: number;
  /** An imported record keeps its number from the source; must not be taken in the project. Default: the next iid. */
  iid?: number;
  /** The import writing the issue (default `none`). */
  importedFrom?: ImportedFrom;
  /** `YYYY-MM-DD` (default none). */
  dueDate?: string | null;
}
/** A change to an issue: the fields given are written, the others kept. */
export type IssuePatch = Partial<{ title: string; description: string; confidential: boolean; state: IssueState; closedAt: Date | null; dueDate: string | null; discussionLocked: boolean; updatedAt: Date }>;

/**
 * The store's issues: create (numbering them per project), find by id or iid, update and list per project.
 */
export interface IssueRepository {
  /**
   * Inserts an open issue with the next iid of its project (one more than the highest issue iid the
   * project ever had). Concurrent creates in one project get distinct iids: implementations
   * serialise on the project row. The project must exist.
   */
  create(input: NewIssue, now: Date): Promise<Issue>;
  findById(id: number): Promise<Issue | null>;
  findByIid(projectId: number, iid: number): Promise<Issue | null>;
  /** Applies the patch; the updated row, or null when the id is unknown. */
  update(id: number, patch: IssuePatch): Promise<Issue | null>;
  /** The project's issues, by iid ascending. */
  listByProject(projectId: number, page: OffsetPageRequest): Promise<OffsetPageResult<Issue>>;
  /** How many issues of each project are open (the project entity's `open_issues_count`); projects without any are absent. */
  countOpened(projectIds: readonly number[]): Promise<Map<number, number>>;
}

/** What creating a merge request takes; the store assigns its `iid` within the project. */
export interface NewMergeRequest {
  projectId: number;
  title: string;
  description: string;
  authorId: number;
  sourceBranch: string;
  targetBranch: string;
  /** An imported record keeps its number from the source; must not be taken in the project. Default: the next iid. */
  iid?: number;
}
/** A change to a merge request: the fields given are written, the others kept. */
export type MergeRequestPatch = Partial<{ title: string; state: MergeRequestState; mergedAt: Date | null; closedAt: Date | null; updatedAt: Date }>;

/**
 * The store's merge requests: create (numbering them per project), find by id or iid, update and list per
 * project.
 */
export interface MergeRequestRepository {
  /** Inserts an open merge request with the next merge-request iid of its project (as `IssueRepository.create`). */
  create(input: NewMergeRequest, now: Date): Promise<MergeRequest>;
  findById(id: number): Promise<MergeRequest | null>;
  findByIid(projectId: number, iid: number): Promise<MergeRequest | null>;
  update(id: number, patch: MergeRequestPatch): Promise<MergeRequest | null>;
  /** By iid ascending. */
  listByProject(projectId: number, page: OffsetPageRequest): Promise<OffsetPageResult<MergeRequest>>;
}

/** What creating a project milestone takes; the store assigns its `iid` within the project. */
export interface NewMilestone {
  projectId: number;
  title: string;
  description: string;
  /** An imported record keeps its number from the source; must not be taken in the project. Default: the next iid. */
  iid?: number;
  /** `YYYY-MM-DD` (default null). */
  startDate?: string | null;
  /** `YYYY-MM-DD` (default null). */
  dueDate?: string | null;
}
/** A change to a milestone: the fields given are written, the others kept. */
export type MilestonePatch = Partial<{ title: string; state: MilestoneState; startDate: string | null; dueDate: string | null; updatedAt: Date }>;

/** The store's project milestones: create (numbering them per project), find by id or iid and update. */
export interface MilestoneRepository {
  /**
   * Inserts an active milestone with the next milestone iid of its project; `null` when the project
   * already has a milestone with that title (titles are unique per project, case-sensitively).
   */
  create(input: NewMilestone, now: Date): Promise<Milestone | null>;
  findById(id: number): Promise<Milestone | null>;
  findByIid(projectId: number, iid: number): Promise<Milestone | null>;
  update(id: number, patch: MilestonePatch): Promise<Milestone | null>;
}

/** What creating a snippet takes. */
export interface NewSnippet {
  projectId: number | null;
  authorId: number;
  title: string;
  fileName: string;
  content: string;
  visibility: Visibility;
  /** The import writing the snippet (default `none`). */
  importedFrom?: ImportedFrom;
}

/** The store's snippets: create and find by id. */
export interface SnippetRepository {
  create(input: NewSnippet, now: Date): Promise<Snippet>;
  findById(id: number): Promise<Snippet | null>;
}

/** What creating a note (a comment or a system note) on an issue, merge request or snippet takes. */
export interface NewNote {
  projectId: number | null;
  noteableType: NoteableType;
  noteableId: number;
  authorId: number;
  body: string;
  system: boolean;
  /** The note's discussion; omitted: a new one (the store picks 40 random hex digits). */
  discussionId?: string;
  /** Omitted: `null` (a plain note). */
  type?: NoteType;
  /** A diff note's position (omitted: none). */
  position?: DiffPosition | null;
  /** A diff note's commit (omitted: none). */
  commitId?: string | null;
  /** The import writing the note (default `none`). */
  importedFrom?: ImportedFrom;
}

/** The store's notes: create, find by id and list per noteable. */
export interface NoteRepository {
  create(input: NewNote, now: Date): Promise<Note>;
  findById(id: number): Promise<Note | null>;
  /** Notes on one noteable, oldest first (by id). */
  listByNoteable(noteableType: NoteableType, noteableId: number): Promise<Note[]>;
}

export type { NewEvent } from "../events/types.js";

/** Whose events a feed lists. */
export type EventFeed =
  /** Events the user authored (`GET /events`, `GET /users/:id/events`). */
  | { kind: "author"; authorId: number }
  /**
   * Events of one project (`GET /projects/:id/events`). `visibility` and `features`: the project's,
   * when the caller has just read the project (the store then does not read it again).
   */
  | { kind: "project"; projectId: number; visibility?: Visibility; features?: ProjectFeatures }
  /**
   * Events of every project the user is authorised for (`GET /events?scope=all`): projects where
   * the user holds an unexpired membership at any level, directly or through the group hierarchy,
   * and the projects of the user's personal namespace.
   */
  | { kind: "authorized"; userId: number };

/**
 * Filters of the event feeds: which feed, the viewer and what they may see, action, target type, dates and
 * order.
 */
export interface EventListFilter {
  feed: EventFeed;
  /** Who is looking; only events this viewer may see are listed (see {@link EventRepository.list}). */
  viewer: Viewer;
  /** Memberships expired at this instant do not count. */
  now: Date;
  action?: EventAction;
  targetType?: EventTargetType;
  /** Only events created strictly before this instant. */
  createdBefore?: Date;
  /** Only events created strictly after this instant. */
  createdAfter?: Date;
  /** By `createdAt`, ties by id, in this direction. */
  sort: "asc" | "desc";
}

/**
 * The store's events: insert, find, list a feed, set an event's audience, and delete those created before
 * a date.
 */
export interface EventRepository {
  /** Inserts an event and returns it with its id. */
  insert(input: NewEvent): Promise<Event>;
  findById(id: number): Promise<Event | null>;
  /**
   * One page of a feed, filtered entirely in the query (pages are full; `total` counts only visible
   * events, bounded as every list is). An event is listed only when it has a project the viewer can
   * read (public; internal when signed in; any project where the viewer has a level; all for
   * administrators) and its audience admits the viewer: `project` anyone, `signed_in` a signed-in
   * viewer, `members` a project member at any level, `reporters` a member at Reporter or above —
   * administrators and `audienceUserId` are always admitted — and the project feature it belongs
   * to (events/features.ts `eventFeature`) is available to the viewer (access/features.ts
   * `featureAvailableAt`: `disabled` to no one, administrators included).
   */
  list(filter: EventListFilter, page: OffsetPageRequest): Promise<OffsetPageResult<Event>>;
  /** Sets the audience of every event whose target is one of `targets`; returns how many changed. */
  setAudience(targets: readonly { type: EventTargetType; id: number }[], audience: EventAudience, audienceUserId: number | null): Promise<number>;
  /** Deletes at most `limit` events created strictly before `cutoff`, oldest first; returns how many it deleted. */
  deleteCreatedBefore(cutoff: Date, limit: number): Promise<number>;
}

/** The activity repositories (`Store.activity`). */
export interface ActivityStore {
  issues: IssueRepository;
  mergeRequests: MergeRequestRepository;
  milestones: MilestoneRepository;
  snippets: SnippetRepository;
  notes: NoteRepository;
  events: EventRepository;
  /** What the REST issue, note and milestone resources add (ports/issue-details-store.ts). */
  issueDetails: IssueDetailsRepository;
  /** Group milestones (ports/group-milestones-store.ts). */
  groupMilestones: GroupMilestoneRepository;
}
